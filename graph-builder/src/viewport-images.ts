import type { PageLayout } from "@pagepath/profiler";
import type { BuildContext } from "./context.js";
import { area, imageResource } from "./lcp-candidates.js";

/**
 * Marks the main frame's images the final layout drew in the viewport (`resource.inViewport`).
 * After each layout Chromium raises every image still loading whose element is in the viewport
 * from Low to High (`ResourceFetcher::UpdateAllImageResourcePriorities`). A recording shows the
 * raise only for the images still loading at that layout, few on a loopback recording: on
 * gen-pagepath-4 it shows 15 of the 50 images in view raised. Replayed at 100 Mbit/s 80 ms over
 * HTTP/1.1, Chromium's net log shows 46 of the 50 raised as layouts placed them (the other four had
 * gone as Low already), so let past the network stack's cap of 10 delayable requests; the emulated
 * browser, raising only the recorded 15, held the rest to the cap.
 */
export function markViewportImages(ctx: BuildContext, layout: PageLayout | null | undefined): void {
  for (const img of layout?.images ?? []) {
    if (img.rect === null || area(img.rect) === 0 || img.url === null || img.url.startsWith("data:")) continue;
    const node = imageResource(ctx, img.url);
    if (node) node.resource!.inViewport = true;
  }
}
