//! "Copy as Markdown": the table names the model, method, settings, memory with its unit,
//! fit, time, top offers and the link; cell text cannot break the table.
use tunefit_core::markdown::{report_markdown, report_markdown_with_link};
use tunefit_core::{evaluate, Query};

fn md(link: &str) -> (tunefit_core::Report, String) {
    let r = evaluate(&Query::parse(link).unwrap()).unwrap();
    let m = report_markdown(&r);
    (r, m)
}

#[test]
fn states_model_method_settings_and_units() {
    let (r, m) = md("v=1&method=lora&rank=32&targets=q,v&batch=8&seq=4096&gpu=h100-sxm");
    assert!(m.contains(&r.model.name), "{m}");
    assert!(m.contains("`llama-3.1-8b`"));
    assert!(m.contains("lora, rank 32, targets q,v"), "{m}");
    assert!(m.contains("micro-batch 8 × sequence 4096 tokens"), "{m}");
    assert!(m.contains("GiB = 2^30 bytes"));
    assert!(m.contains("bf16-mixed, optimizer adamw"));
}

#[test]
fn memory_rows_are_the_reports_bytes_in_gib() {
    let (r, m) = md("v=1&gpu=a100-80gb");
    let gib = |b: u64| format!("{:.2}", b as f64 / 1_073_741_824.0);
    assert!(m.contains(&format!("| Weights | {} |", gib(r.memory.weights))), "{m}");
    assert!(m.contains(&format!("| **Device** (nvidia-smi) | {} |", gib(r.memory.device))), "{m}");
    assert!(m.contains(&format!("| **Allocated** (torch max_memory_allocated) | {} |", gib(r.memory.allocated))));
}

#[test]
fn fit_time_offers_and_link_when_present() {
    let (r, m) = md("v=1&gpu=h100-sxm");
    assert!(m.contains("**Fit on h100-sxm**"), "{m}");
    assert!(m.contains(": fits,"), "{m}");
    assert!(m.contains("**Time**"));
    let c = r.cost.as_ref().unwrap();
    assert!(!c.offers.is_empty());
    assert!(m.contains("**Cheapest offers**"));
    let first = &c.offers[0];
    assert!(m.contains(&format!("| 1 | {} | {} |", first.provider, first.gpu)), "{m}");
    // At most five offer rows.
    assert!(!m.contains("\n| 6 |"));
    assert!(m.contains(&format!("Link: `?{}`", r.query)));
    let full = report_markdown_with_link(&r, Some("https://example.org/tunefit/"));
    assert!(full.contains(&format!("Link: `https://example.org/tunefit/?{}`", r.query)));
}

#[test]
fn a_config_that_does_not_fit_says_so() {
    let (_, m) = md("v=1&model=llama-3.1-70b&method=full&gpu=rtx-4090");
    assert!(m.contains("does not fit"), "{m}");
    assert!(m.contains("headroom -"), "{m}");
}

#[test]
fn no_gpu_means_no_fit_section() {
    let (r, m) = md("v=1");
    assert!(r.fit.is_none());
    assert!(!m.contains("**Fit on"));
}

fn assert_tables_well_formed(m: &str) {
    let mut block: Vec<usize> = Vec::new();
    for line in m.lines().chain([""]) {
        if line.starts_with('|') {
            block.push(line.replace("\\|", "").matches('|').count());
        } else if !block.is_empty() {
            assert!(block.iter().all(|n| *n == block[0]), "ragged table {block:?} in\n{m}");
            block.clear();
        }
    }
}

#[test]
fn every_table_row_has_its_columns() {
    let (_, m) = md("v=1&method=qlora&gpu=l4&pricing=both");
    assert_tables_well_formed(&m);
}

#[test]
fn hostile_text_cannot_break_the_table() {
    let (mut r, _) = md("v=1&gpu=h100-sxm");
    r.model.name = "evil | name\n<script>alert(1)</script>".into();
    let m = report_markdown(&r);
    assert!(!m.contains("<script>"), "{m}");
    assert!(m.contains("evil \\| name"), "{m}");
    assert_tables_well_formed(&m);
}

#[test]
fn the_pages_download_and_copy_say_what_is_wrong_with_their_input() {
    use tunefit_core::markdown::markdown_of_query as report_markdown;
    use tunefit_core::report::report_json;
    // 2026-12-03 as days since 1970.
    const TODAY: f64 = 20_425.0;
    let ok: serde_json::Value = serde_json::from_str(&report_json("v=1&gpu=rtx-4090", "", TODAY)).unwrap();
    assert!(ok["memory"]["device"].as_u64().unwrap() > 0);
    assert!(ok["fixes"].as_array().is_some_and(|f| !f.is_empty()), "the download carries the fixes");
    let bad: serde_json::Value = serde_json::from_str(&report_json("batch=-1", "", TODAY)).unwrap();
    assert!(bad["error"].as_str().unwrap().contains("batch"));
    let prices: serde_json::Value = serde_json::from_str(&report_json("v=1", "not json", TODAY)).unwrap();
    assert!(prices["error"].as_str().unwrap().starts_with("prices: "));
    assert!(report_markdown("batch=-1", "", "https://x/", TODAY).contains("batch"));
    assert!(report_markdown("v=1", "", "https://x/", TODAY).contains("https://x/?v=1"));
}

#[test]
fn prices_older_than_60_days_are_marked_in_the_json_and_the_markdown() {
    use tunefit_core::advice::age_days;
    use tunefit_core::markdown::markdown_of_query;
    use tunefit_core::report::report_json;
    let q = "v=2&provider=seeweb";
    let today = |date: &str| age_days(date, 0.0).map(|d| -d).unwrap();
    // The bundled Seeweb rows are dated around 2026-09 (AWS's and GCP's were too, until they were
    // read from the catalog on 2026-12-04): stale by 2026-12-03, fresh in mid-September.
    for (day, stale) in [(today("2026-12-03"), true), (today("2026-09-15"), false)] {
        let v: serde_json::Value = serde_json::from_str(&report_json(q, "", day)).unwrap();
        let offers = v["cost"]["offers"].as_array().unwrap();
        assert!(!offers.is_empty());
        for o in offers {
            // An undated price (none in this data, a person's own) is never stale.
            let age = age_days(o["snapshot_date"].as_str().unwrap(), day);
            assert_eq!(o["stale"].as_bool(), Some(age.is_some_and(|a| a > 60.0)), "{o}");
        }
        assert_eq!(v["cost"]["cheapest"]["stale"].as_bool(), Some(stale));
        let md = markdown_of_query(q, "", "https://x/", day);
        assert_eq!(md.contains("(older than 60 days)"), stale, "{md}");
    }
    // A price dated by its year alone is as old as the year's last day: ~2025 is stale by
    // 2026-12-03, ~2026 is not yet known to be; no date at all is neither.
    let dec3 = today("2026-12-03");
    assert!(age_days("~2025", dec3).unwrap() > 60.0);
    assert!(age_days("~2026", dec3).unwrap() < 60.0);
    assert_eq!(age_days("", dec3), None);
    // Undated, the JSON says nothing about it.
    let r = tunefit_core::evaluate(&tunefit_core::Query::parse(q).unwrap()).unwrap();
    assert!(!serde_json::to_string(&r).unwrap().contains("\"stale\""));
}
