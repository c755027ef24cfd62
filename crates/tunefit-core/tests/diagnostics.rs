//! Warnings, recommendation sentences and explanations carry their figures as fields and are
//! rendered in English and Russian from them: every sentence the core emits for a spread of
//! queries reads in Russian with the same figures as in English.
use tunefit_core::diag::{Lang, Warning};

/// Queries that raise most of the core's warnings and recommendation sentences.
const QUERIES: [&str; 13] = [
    "params=7b&optim=paged-adamw&shard=zero3&offload=all&method=qlora",
    "offload=optimizer",
    "offload=all&shard=zero2&gpus=2",
    "framework=torchtune&method=prefix",
    "framework=unsloth&gpus=2",
    "framework=torchtune&quant=fp4",
    "method=full&shard=zero3&model=llama-3.1-70b",
    "gpu=v100-32gb&gpus=1",
    "gpu=a100-80gb&gpus=1&pricing=on-demand",
    "method=full&model=llama-3.1-8b&shard=fsdp",
    "model=gemma-3-4b",
    "method=qlora&model=llama-3.1-70b&tokens=1m&runs=3&pricing=on-demand",
    "model=llama-3.1-8b&method=lora&tokens=20m&runs=10&idle_min=45&pricing=on-demand",
];

fn is_russian(s: &str) -> bool {
    s.chars().any(|c| ('а'..='я').contains(&c))
}

/// Every number of the English sentence is in the Russian one (decimals may use a comma).
fn same_figures(en: &str, ru: &str) -> Result<(), String> {
    for fig in en.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|f| f.chars().any(|c| c.is_ascii_digit())) {
        let fig = fig.trim_end_matches('.');
        if !(ru.contains(fig) || ru.contains(&fig.replace('.', ","))) {
            return Err(format!("figure {fig} of {en:?} lost in {ru:?}"));
        }
    }
    Ok(())
}

#[test]
fn emitted_warnings_and_recommendations_read_in_russian_with_their_figures() {
    let mut seen: Vec<&str> = Vec::new();
    for s in QUERIES {
        let r = tunefit_core::evaluate(&tunefit_core::Query::parse(s).unwrap()).unwrap();
        let cost = r.cost.clone().unwrap();
        assert_eq!(cost.recommendation, cost.notes.iter().map(Warning::message).collect::<Vec<_>>().join(" "));
        for w in r.warnings.iter().chain(&cost.warnings).chain(&cost.notes) {
            let (en, ru) = (w.text(Lang::En), w.text(Lang::Ru));
            assert_eq!(en, w.message());
            assert!(is_russian(&ru) && !is_russian(&en), "{}: {ru}", w.code());
            same_figures(&en, &ru).unwrap_or_else(|e| panic!("{}: {e}", w.code()));
            if !seen.contains(&w.code()) {
                seen.push(w.code())
            }
        }
    }
    assert!(seen.len() >= 18, "the queries raise most codes: {seen:?}");
}

#[test]
fn explanations_read_in_russian_with_their_figures() {
    let mut whys: Vec<std::mem::Discriminant<tunefit_core::memory::Phrase>> = Vec::new();
    for s in [
        "",
        "method=full&set_to_none=0",
        "framework=unsloth&act_offload=1",
        "method=lora&ga=4&framework=torchtune",
        "v=1&method=lora",
        "v=2",
        "v=2&method=full",
        "v=2&method=full&framework=litgpt",
    ] {
        let r = tunefit_core::evaluate(&tunefit_core::Query::parse(s).unwrap()).unwrap();
        assert!(r.explanations.len() >= 5, "{s}: {} explanations", r.explanations.len());
        for e in &r.explanations {
            if let Some(w) = &e.why {
                if !whys.contains(&std::mem::discriminant(w)) {
                    whys.push(std::mem::discriminant(w));
                }
            }
            for p in std::iter::once(&e.formula).chain(&e.assumptions).chain(&e.why) {
                let (en, ru) = (p.text(Lang::En), p.text(Lang::Ru));
                assert!(is_russian(&ru), "{s}: untranslated: {en}");
                same_figures(&en, &ru).unwrap_or_else(|m| panic!("{s}: {m}"));
            }
        }
    }
    assert_eq!(whys.len(), 4, "the queries raise every kind of why-sentence: {whys:?}");
}

#[test]
fn the_json_keeps_code_and_english_message() {
    let r = tunefit_core::evaluate(&tunefit_core::Query::parse("params=7b").unwrap()).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    let w = &v["warnings"][0];
    assert_eq!(w["code"], "inferred-architecture");
    assert!(w["message"].as_str().unwrap().starts_with("architecture guessed from the parameter count"));
    let formula = &v["explanations"][0]["formula"];
    assert!(formula.as_str().unwrap().starts_with("frozen params × storage bytes"), "{formula}");
}

#[test]
fn russian_counts_take_their_plural_form() {
    use tunefit_core::diag::plural_ru;
    let hours = |n| format!("{n} {}", plural_ru(n, "час", "часа", "часов"));
    let said: Vec<String> = [1, 2, 4, 5, 11, 12, 14, 20, 21, 22, 25, 101, 111, 0].into_iter().map(hours).collect();
    assert_eq!(
        said,
        [
            "1 час",
            "2 часа",
            "4 часа",
            "5 часов",
            "11 часов",
            "12 часов",
            "14 часов",
            "20 часов",
            "21 час",
            "22 часа",
            "25 часов",
            "101 час",
            "111 часов",
            "0 часов"
        ]
    );
    // «в каждом из 21 запуска», «из 3 запусков»: the genitive after «из».
    let billing = |runs| {
        Warning::HourlyBilling { provider: "aws".into(), hours: 1.25, billed_hours: 2.0, idle_percent: 37.5, runs }
            .text(Lang::Ru)
    };
    assert!(billing(21).contains("в каждом из 21 запуска."), "{}", billing(21));
    assert!(billing(3).contains("в каждом из 3 запусков."), "{}", billing(3));
    assert!(billing(11).contains("в каждом из 11 запусков."), "{}", billing(11));
}

#[test]
fn offers_inside_a_sentence_are_named_in_its_language() {
    use tunefit_core::diag::OfferName;
    let offer =
        |gpus, pricing: &str| OfferName { gpus, gpu: "T4".into(), provider: "gcp".into(), pricing: pricing.into() };
    let w = Warning::ExtrasChangeWinner {
        by_price: offer(1, "on-demand"),
        by_price_usd: 3.81,
        winner: offer(2, "spot"),
        winner_usd: 3.76,
    };
    assert_eq!(
        w.text(Lang::En),
        "Billing rounding, idle time, storage and egress change the cheapest offer: by price × time alone 1× T4 at gcp (on-demand) would win, but it costs $3.81 in all against $3.76 for 2× T4 at gcp (spot)."
    );
    let ru = w.text(Lang::Ru);
    assert!(
        ru.contains(
            "выиграло бы 1× T4 у gcp (по требованию), но всего оно стоит $3,81 против $3,76 за 2× T4 у gcp (spot)."
        ),
        "{ru}"
    );
}

#[test]
fn a_links_bad_values_read_in_russian_with_their_figures() {
    use tunefit_core::diag::query_problem;
    // One bad value of every kind the decoder reports.
    let link = "batch=-3&seq=4k5&ga=2.5&epochs=1e-12&packing=2&gpu=a%20b&tokens=5q&method=magic\
                &targets=q,x&v=9&zzz=1&lora_dropout=abc&model=llama-3.1-8b&params=7b";
    let (_, errs) = tunefit_core::Query::parse_lenient(link);
    assert!(errs.len() >= 12, "{errs:?}");
    for e in &errs {
        let (en, ru) = (query_problem(e, Lang::En), query_problem(e, Lang::Ru));
        assert_eq!(en, e.message);
        assert!(is_russian(&ru) && !is_russian(&en), "{}: {ru}", e.key);
        same_figures(&en, &ru).unwrap_or_else(|m| panic!("{}: {m}", e.key));
    }
}

#[test]
fn refusals_name_their_key_and_read_in_russian_with_their_figures() {
    for (s, key) in [
        ("gpus=8&tp=3", "tp"),
        ("v=2&model=gpt-oss-20b&method=full&expert_format=mxfp4", "expert_format"),
        ("optim_in_bwd=1&ga=2", "optim_in_bwd"),
        ("gpus=8&pp=3", "pp"),
        ("model=gpt2&gpus=16&pp=16", "pp"),
        ("gpus=3&cp=3&seq=1000", "cp"),
        ("gpus=2&nodes=4", "nodes"),
        ("model=llama-3.1-8b&gpus=3&tp=3", "tp"),
        ("model=gpt2&seq=2000", "seq"),
        ("model=gpt2&method=freeze&train_layers=13", "train_layers"),
        ("model=gpt2&method=adapter&bottleneck=5000", "bottleneck"),
        ("model=llama-3.2-1b&method=lora&rank=4096", "rank"),
        ("model=gpt2&method=lora&targets=gate", "targets"),
        ("model=nope", "model"),
        ("provider=nope", "provider"),
        ("gpu=nope", "gpu"),
        ("model=custom&layers=2&hidden=64&heads=4&kv_heads=3&head_dim=16&ffn=128&vocab=100", "kv_heads"),
    ] {
        let Err(e) = tunefit_core::evaluate(&tunefit_core::Query::parse(s).unwrap()) else { panic!("{s}: evaluated") };
        assert!(matches!(e, tunefit_core::Error::Refused(_)), "{s}: {e:?}");
        assert_eq!(e.key(), Some(key), "{s}");
        let (en, ru) = (e.text(Lang::En), e.text(Lang::Ru));
        assert_eq!(en, e.to_string());
        assert!(is_russian(&ru) && !is_russian(&en), "{s}: {ru}");
        same_figures(&en, &ru).unwrap_or_else(|m| panic!("{s}: {m}"));
        // The JSON keeps the shape of the error it replaced.
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["Invalid"]["key"], key);
        assert_eq!(format!("{key}: {}", v["Invalid"]["message"].as_str().unwrap()), en);
    }
}
