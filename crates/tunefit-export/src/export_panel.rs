//! The page's "Copy config" panel, written here as markup: the hint, a tab per file, the
//! chosen file, the copy button and the settings the framework cannot express. The exporter,
//! its templates, its notes in both languages and this panel's own strings load with this
//! module when the panel first opens, not with the page (src/components/export.rs only asks,
//! shows, and copies the shown file's text). Tabs and the button carry `data-act` (`tab:<i>`,
//! `copy`: the page's one listener).

use tunefit_core::diag::Lang;
use tunefit_core::export::export_in;
use tunefit_core::markup::Html;
use tunefit_core::query::{Framework, Query};
use tunefit_core::write_html;

struct Strings {
    export_for: fn(fw: &str) -> String,
    copy: &'static str,
    warnings: &'static str,
    cannot_compute: &'static str,
}

static EN: Strings = Strings {
    export_for: |fw| format!("A starting config for {fw} with the settings of this estimate."),
    copy: "Copy file",
    warnings: "Not expressed in this config",
    cannot_compute: "This configuration cannot be computed:",
};

static RU: Strings = Strings {
    export_for: |fw| format!("Заготовка конфига для {fw} с настройками этой оценки."),
    copy: "Копировать файл",
    warnings: "Не выражено в этом конфиге",
    cannot_compute: "Эту конфигурацию нельзя посчитать:",
};

/// The panel for `query` exported to `framework`, file `tab` shown (the last one when `tab`
/// is past the end), in `lang` ("ru" is Russian; any other value is English). A query or
/// framework the exporter refuses is said as `export-error`, in the same words as
/// `tunefit export`.
pub fn html(query: &str, framework: &str, lang: &str, tab: usize) -> Html {
    let lang = Lang::from_code(lang);
    let s = if lang == Lang::Ru { &RU } else { &EN };
    let mut h = Html::new();
    let export = match (Query::parse(query), Framework::parse(framework)) {
        (Err(e), _) => Err(tunefit_core::diag::Error::from(e).text(lang)),
        (_, None) => Err(format!("framework: '{framework}' is not one of {}", tunefit_core::export::accepted())),
        (Ok(q), Some(fw)) => export_in(&q, fw, lang).map_err(|e| e.text(lang)),
    };
    let x = match export {
        Ok(x) if !x.files.is_empty() => x,
        Ok(_) => return h,
        Err(e) => {
            write_html!(h, r#"<p class="notice warn" data-testid="export-error">"#, s.cannot_compute, " ", e, "</p>");
            return h;
        }
    };
    let tab = tab.min(x.files.len() - 1);
    write_html!(h, r#"<p class="hint">"#, (s.export_for)(x.framework.as_str()), "</p>");
    write_html!(h, r#"<div role="tablist" class="tabs" data-testid="export-tabs">"#);
    for (i, f) in x.files.iter().enumerate() {
        write_html!(
            h,
            r#"<button type="button" role="tab" aria-selected=""#,
            i == tab,
            r#"" data-testid="export-tab" data-act="tab:"#,
            i,
            r#"">"#,
            f.name,
            "</button>"
        );
    }
    write_html!(h, "</div>");
    write_html!(
        h,
        r#"<pre class="code" role="tabpanel" data-testid="export-file"><code>"#,
        x.files[tab].content,
        "</code></pre>"
    );
    write_html!(h, r#"<button type="button" data-testid="copy-config" data-act="copy">"#, s.copy, "</button>");
    if !x.warnings.is_empty() {
        write_html!(h, "<h3>", s.warnings, r#"</h3><ul data-testid="export-warnings">"#);
        for w in &x.warnings {
            write_html!(h, r#"<li data-code=""#, w.code, r#"">"#, w.message, "</li>");
        }
        write_html!(h, "</ul>");
    }
    h
}

#[cfg(test)]
mod tests {
    use super::html;
    use tunefit_core::diag::Lang;
    use tunefit_core::export::export_in;
    use tunefit_core::query::{Framework, Query};

    const Q: &str = "v=1&method=lora&gpus=2&shard=zero3&tp=2&framework=hf";

    /// The text between `open` (its first occurrence after `from`) and the next `close`.
    fn between<'a>(s: &'a str, open: &str, close: &str) -> &'a str {
        let start = s.find(open).map(|i| i + open.len()).unwrap_or_else(|| panic!("no {open} in {s}"));
        &s[start..start + s[start..].find(close).unwrap()]
    }

    fn unescape(s: &str) -> String {
        s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
    }

    #[test]
    fn shows_the_chosen_file_a_tab_per_file_and_every_warning() {
        let x = export_in(&Query::parse(Q).unwrap(), Framework::Hf, Lang::En).unwrap();
        assert!(x.files.len() >= 2 && !x.warnings.is_empty(), "a case with tabs and warnings");
        for tab in 0..x.files.len() {
            let h = html(Q, "hf", "en", tab).into_string();
            assert_eq!(h.matches(r#"data-testid="export-tab""#).count(), x.files.len());
            assert_eq!(h.matches(r#"aria-selected="true""#).count(), 1);
            assert!(
                h.contains(&format!(r#"aria-selected="true" data-testid="export-tab" data-act="tab:{tab}""#)),
                "{h}"
            );
            let shown = between(&h, r#"data-testid="export-file"><code>"#, "</code>");
            assert_eq!(unescape(shown), x.files[tab].content);
            assert_eq!(h.matches("<li data-code=").count(), x.warnings.len());
        }
        // Past the end: the last file, not a panic.
        let last = html(Q, "hf", "en", 99).into_string();
        assert_eq!(unescape(between(&last, "<code>", "</code>")), x.files.last().unwrap().content);
    }

    #[test]
    fn speaks_the_pages_language_and_says_a_refusal() {
        let ru = html(Q, "hf", "ru", 0).into_string();
        assert!(ru.contains("Копировать файл") && ru.contains("Не выражено"), "{ru}");
        let x = export_in(&Query::parse(Q).unwrap(), Framework::Hf, Lang::Ru).unwrap();
        let mut first = tunefit_core::markup::Html::new();
        first.text(&x.warnings[0].message);
        assert!(ru.contains(first.as_str()));

        let bad = html("v=1&batch=-3", "hf", "en", 0).into_string();
        assert!(
            bad.starts_with(
                r#"<p class="notice warn" data-testid="export-error">This configuration cannot be computed: "#
            ),
            "{bad}"
        );
        assert!(!bad.contains("export-file"));
        let fw = html(Q, "nemo", "en", 0).into_string();
        assert!(fw.contains("framework: &#39;nemo&#39; is not one of"), "{fw}");
    }
}
