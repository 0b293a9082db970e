/** GET a viewer API path; a failed request throws the server's error message. */
export async function fetchJson<T>(path: string): Promise<T> {
  const res = await fetch(path);
  const body = (await res.json()) as T | { error: string };
  if (!res.ok) throw new Error((body as { error?: string }).error ?? `${path}: HTTP ${res.status}`);
  return body as T;
}
