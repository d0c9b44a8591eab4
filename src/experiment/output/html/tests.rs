use super::*;

#[test]
fn text_is_escaped_and_code_spans_kept() {
    assert_eq!(escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
    assert_eq!(inline("the `x<y` rule"), "the <code>x&lt;y</code> rule");
    let svg = inline_svg("<?xml version=\"1.0\"?>\n<svg width=\"1\">x</svg>", "A & B");
    assert!(svg.starts_with("<svg role=\"img\" aria-label=\"A &amp; B\" width"));
}

#[test]
fn the_printed_foot_names_the_report_in_a_css_string() {
    let c = colophon("Does \"A\" beat B?\n</style>", "morale-lab run a.toml");
    assert!(
        c.contains("@bottom-left") && c.contains("counter(pages)"),
        "{c}"
    );
    assert!(
        c.contains("content: \"Does \\\"A\\\" beat B? \\3c /style>\""),
        "{c}"
    );
    // The foot names nothing a paper reader cannot turn to; the head says what made the
    // figures and how to make them again (writer trial 59).
    assert!(!c.contains("full report"), "{c}");
    assert!(
        c.contains("@page :first { @top-right { content: \"morale-lab run a.toml\"")
            && c.contains("@page { @top-right { content: \"\"; }"),
        "{c}"
    );
}
