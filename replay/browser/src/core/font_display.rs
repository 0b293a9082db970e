//! How long text waits for its web font before Chromium paints it in a fallback font: the block
//! period of CSS Fonts 4 §4.9, timed as Chromium times it. On loopback a font always arrives
//! first; over a slow link the period ending is what the largest contentful paint waits for.

use super::Ms;

/// The `font-display` of the face a text paint waits for (graph.md, `font-display-*` rules);
/// `swap`, `fallback` and `optional` text paints at once and has no such edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FontDisplay {
    Auto,
    Block,
}

/// Chromium's long font load limit: a `block` face's text shows in a fallback font this long
/// after the font's load began (§4.9 recommends 3 s).
const BLOCK_PERIOD_MS: Ms = 3000.0;

/// Blink's AlignFontDisplayAutoTimeoutWithLCPGoal, on by default (lcp-limit-in-ms 2000, mode
/// swap): this long after navigation start every `auto` face still loading enters its swap
/// period, so its text paints in a fallback font and counts for LCP; a font first requested later
/// swaps at once.
const AUTO_LCP_LIMIT_MS: Ms = 2000.0;

impl FontDisplay {
    /// When text in a face of this display stops waiting for its font, given navigation start and
    /// when the font's load began; None while that is not known yet (a `block` font not asked for).
    pub fn gives_up_at(self, navigation_start: Ms, load_began: Option<Ms>) -> Option<Ms> {
        match self {
            // The long limit also applies to `auto`, but always later than the LCP limit.
            FontDisplay::Auto => Some(navigation_start + AUTO_LCP_LIMIT_MS),
            FontDisplay::Block => load_began.map(|began| began + BLOCK_PERIOD_MS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_text_waits_until_two_seconds_after_navigation_start_and_block_text_three_seconds_after_its_font_was_asked_for() {
        assert_eq!(FontDisplay::Auto.gives_up_at(10.0, Some(1500.0)), Some(2010.0));
        assert_eq!(FontDisplay::Auto.gives_up_at(10.0, None), Some(2010.0));
        assert_eq!(FontDisplay::Block.gives_up_at(10.0, Some(1500.0)), Some(4500.0));
        assert_eq!(FontDisplay::Block.gives_up_at(10.0, None), None);
    }
}
