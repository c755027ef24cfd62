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
        currency: tunefit_core::query::Currency::Usd,
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
        (
            "model=custom&layers=2&hidden=64&heads=4&kv_heads=4&head_dim=16&ffn=128&vocab=100&dense_layers=5&dense_ffn=128",
            "dense_layers",
        ),
        (
            "model=custom&layers=2&hidden=64&heads=4&kv_heads=4&head_dim=16&ffn=128&vocab=100&kv_rank=32&rope_dim=16&v_dim=16",
            "kv_rank",
        ),
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

/// Latin words of a Russian sentence that are not identifiers, keys, units or names: what is
/// quoted («…», `…`) is the person's own text or code, a word with a digit, `_`, `.`, `|`,
/// `=` or `:` is code, a word with an inner capital a name; the rest must be allowed here.
fn stray_latin(ru: &str, allowed: &[&str]) -> Vec<String> {
    let mut unquoted = String::new();
    let mut close = None;
    for c in ru.chars() {
        match (close, c) {
            (None, '«') => close = Some('»'),
            (None, '`') => close = Some('`'),
            (Some(q), c) if c == q => close = None,
            (None, c) => unquoted.push(c),
            _ => {}
        }
    }
    let ru = unquoted.as_str();
    const NAMES: [&str; 16] = [
        "JSON",
        "GPU",
        "USD",
        "null",
        "true",
        "false",
        "spot",
        "escape",
        "Unsloth",
        "litgpt",
        "torchtune",
        "HF",
        "Trainer",
        "Qwen3",
        "Next",
        "config",
    ];
    ru.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '«' | '»' | '/'))
        .filter(|w| !w.is_empty() && w.chars().any(|c| c.is_ascii_alphabetic()))
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit() || "_.|=:`\"-'".contains(c)))
        // An inner capital is a type's or a product's name (PriceBook, DeepSpeed).
        .filter(|w| !w.chars().skip(1).any(|c| c.is_ascii_uppercase()))
        .filter(|w| !NAMES.contains(w) && !allowed.contains(w))
        .map(str::to_string)
        .collect()
}

/// Checks one error: its English is exactly the sentence given, its Russian is Russian with
/// the same figures and no English words.
fn reads_in_russian(en: &str, ru: &str, was: &str, allowed: &[&str]) {
    assert_eq!(en, was);
    assert!(is_russian(ru) && !is_russian(en), "{ru}");
    same_figures(en, ru).unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(stray_latin(ru, allowed), Vec::<String>::new(), "{ru}");
}

#[test]
fn config_errors_read_in_russian_with_their_figures() {
    use tunefit_core::hfconfig::{parse, ConfigError, ConfigProblem};
    let invalid = |field: &str, problem| ConfigError::Invalid { field: field.into(), problem };
    let families = tunefit_core::hfconfig::FAMILIES;
    for (e, was) in [
        (parse("[1, x]").unwrap_err(), "config.json is not a JSON object: expected value at line 1 column 4"),
        (parse("[1, 2]").unwrap_err(), "config.json is not a JSON object: top level is not an object"),
        (
            parse(r#"{"model_type": "llama", "hidden_size": 4096}"#).unwrap_err(),
            "config.json: required field 'num_attention_heads' is missing",
        ),
        (
            parse(r#"{"model_type":"llama","hidden_size":-4}"#).unwrap_err(),
            "config.json: 'hidden_size' must be a whole number from 1 to 1e8, got -4",
        ),
        (
            invalid("first_k_dense_replace", ConfigProblem::NotCount { got: "\"x\"".into() }),
            "config.json: 'first_k_dense_replace' must be a whole number, got \"x\"",
        ),
        (
            invalid("tie_word_embeddings", ConfigProblem::NotBool { got: "3".into() }),
            "config.json: 'tie_word_embeddings' must be true or false, got 3",
        ),
        (
            invalid("num_key_value_heads", ConfigProblem::KvHeadsDivide { kv_heads: 5, heads: 32 }),
            "config.json: 'num_key_value_heads' 5 does not divide num_attention_heads 32",
        ),
        (
            invalid("num_experts_per_tok", ConfigProblem::OverExperts),
            "config.json: 'num_experts_per_tok' exceeds the number of experts",
        ),
        (
            invalid("first_k_dense_replace", ConfigProblem::OverLayers),
            "config.json: 'first_k_dense_replace' exceeds num_hidden_layers",
        ),
        (
            invalid("model_type", ConfigProblem::LinearAttention),
            "config.json: 'model_type' describes linear-attention blocks or gated attention (Qwen3-Next style) that link keys cannot express unless it is a preset's exact shape (qwen3-next-80b-a3b)",
        ),
        (
            ConfigError::UnsupportedFamily("t5".into()),
            &*format!("config.json: model_type 't5' is not supported; supported: {}", families.join(", ")),
        ),
    ] {
        reads_in_russian(&e.text(Lang::En), &e.text(Lang::Ru), was, families);
    }
    // The page's line carries the message in its language.
    let line = tunefit_core::hfconfig::read_for_page_in("{", Lang::Ru);
    assert!(line.starts_with("err\tconfig.json — не объект JSON: текст оборвался"), "{line}");
    assert!(tunefit_core::hfconfig::read_for_page("{").starts_with("err\tconfig.json is not a JSON object: EOF"));
}

#[test]
fn json_syntax_errors_read_in_russian() {
    for (text, was) in [
        ("[1] 2", "trailing characters at line 1 column 4"),
        ("[", "EOF while parsing a value at line 1 column 1"),
        ("tru", "EOF while parsing a value at line 1 column 3"),
        ("trux", "expected ident at line 1 column 3"),
        ("[1", "EOF while parsing a list at line 1 column 2"),
        ("[1 2]", "expected `,` or `]` at line 1 column 3"),
        ("{\"a\": 1", "EOF while parsing an object at line 1 column 7"),
        ("{1: 2}", "key must be a string at line 1 column 1"),
        ("{\"a\" 1}", "expected `:` at line 1 column 5"),
        ("{\"a\": 1 2}", "expected `,` or `}` at line 1 column 8"),
        ("x", "expected value at line 1 column 0"),
        ("-x", "invalid number at line 1 column 1"),
        ("1e999", "number out of range at line 1 column 5"),
        ("\"ab", "EOF while parsing a string at line 1 column 3"),
        ("\"\\q\"", "invalid escape at line 1 column 3"),
        ("\"\u{1}\"", "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 2"),
    ] {
        let e = tunefit_core::json::parse(text).unwrap_err();
        let (en, ru) = (tunefit_core::diag::json_error(&e, Lang::En), tunefit_core::diag::json_error(&e, Lang::Ru));
        reads_in_russian(&en, &ru, was, &[]);
    }
    let deep = "[".repeat(200);
    let e = tunefit_core::json::parse(&deep).unwrap_err();
    assert!(is_russian(&tunefit_core::diag::json_error(&e, Lang::Ru)));
}

#[test]
fn price_list_errors_read_in_russian_with_their_figures() {
    use tunefit_core::prices::PriceBook;
    const HEAD: &str = "kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name\n";
    let csv = |body: &str| PriceBook::from_csv(&format!("{HEAD}{body}")).unwrap_err();
    let json = |t: &str| PriceBook::from_json(t).unwrap_err();
    let o = r#""provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": 8"#;
    let gpus = tunefit_core::dataset::gpu_ids();
    let cases = [
        (csv("override,aws,h100-sxm,8,inf,,,"), "line 2: on_demand_usd_h: inf is not a number".to_string()),
        (csv("override,aws,h100-sxm,8,-3.5,,,"), "line 2: on_demand_usd_h: -3.5 is negative; a price is USD per instance-hour >= 0".into()),
        (csv("override,aws,h100-sxm,8,,200000,,"), "line 2: spot_usd_h: 200000 USD/h is more than 100000; prices are per instance-hour".into()),
        (csv("override,aws,h100-sxm,8,abc,,,"), "line 2: on_demand_usd_h: 'abc' is not a number".into()),
        (csv("override,aws,h100-sxm,eight,1,,,"), "line 2: gpus_per_instance: 'eight' is not a whole number of GPUs".into()),
        (csv("override,aws,h100-sxm,0,1,,,"), "line 2: gpus_per_instance: 0 is not from 1 to 72".into()),
        (csv("override,aws,warp-9000,8,1,,,"), format!("line 2: gpu: unknown GPU id 'warp-9000'; expected one of {gpus}")),
        (csv("override,A W S,h100-sxm,8,1,,,"), "line 2: provider: 'a w s' is not an id of lower-case letters, digits, '-', '_' or '.'".into()),
        (csv("lease,aws,h100-sxm,8,1,,,"), "line 2: kind: 'lease' is not override|custom".into()),
        (csv("custom,lab,h100-sxm,8,1,,weekly,x"), "line 2: billing: 'weekly' is not second|minute|hour".into()),
        (csv("custom,lab,h100-sxm,8,1,,,"), "line 2: name: a custom offer needs a name of letters, digits, '-', '_' or '.'".into()),
        (csv("custom,lab,h100-sxm,8,1,,,x\ncustom,lab,h100-sxm,8,1,,,x"), "line 3: name: 'x' is used twice".into()),
        (csv("override,aws,h100-sxm,8,,,,"), "line 2: on_demand_usd_h: give an on-demand or a spot price (or both)".into()),
        (csv("override,aws,h100-sxm"), "line 2: : 3 fields, the header has 8".into()),
        (PriceBook::from_csv("kind,colour\n").unwrap_err(), "line 1: colour: unknown column; expected kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name".into()),
        (PriceBook::from_csv("kind,provider\n").unwrap_err(), "line 1: gpu: column missing from the header".into()),
        (json("{\"overrides\": ["), "line 1: json: EOF while parsing a value at line 1 column 15".into()),
        (json(r#"{"overrides": [], "overrides": []}"#), "line 1: overrides: duplicate field `overrides` at line 1".into()),
        (json(r#"{"prices": []}"#), "line 1: prices: unknown field `prices`, expected `overrides` or `custom_offers` at line 1".into()),
        (json(&format!(r#"{{"overrides": [{{{o}, "colour": 1}}]}}"#)), "line 1: colour: unknown field `colour`, expected one of `provider`, `gpu`, `gpus_per_instance`, `on_demand_usd_h`, `spot_usd_h` at line 1".into()),
        (json(r#"{"overrides": [{"provider": "aws"}]}"#), "line 1: gpu: missing field `gpu` at line 1".into()),
        (json(r#"{"overrides": [{"provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": "8"}]}"#), "line 1: overrides[0].gpus_per_instance: invalid type: string \"8\", expected u32 at line 1".into()),
        (json(r#"{"overrides": {}}"#), "line 1: overrides: invalid type: map, expected a sequence".into()),
        (json("null"), "line 1: json: invalid type: null, expected struct PriceBook".into()),
        (json(r#"{"custom_offers": [{"name": "Lab!", "provider": "p", "gpu": "l4", "gpus_per_instance": 1, "spot_usd_h": 1}]}"#), "custom_offers[0].name: expected lower-case letters, digits, '-', '_' or '.' (at most 64)".into()),
        (PriceBook::from_compact("o:aws:h100-sxm:x:1:").unwrap_err(), "prices[0].gpus_per_instance: 'x' is not a whole number".into()),
        (PriceBook::from_compact("c:lab:p:l4:1:1::w").unwrap_err(), "prices[0].billing: 'w' is not s|m|h".into()),
        (PriceBook::from_compact("x:1").unwrap_err(), "prices[0]: expected o:provider:gpu:count:on_demand:spot or c:name:provider:gpu:count:on_demand:spot:billing".into()),
        (PriceBook::from_compact(&"o:aws:h100-sxm:8:1:;".repeat(1001)).unwrap_err(), "prices: more than 1000 entries".into()),
    ];
    let mut names: Vec<&str> = gpus.split(", ").collect();
    // A non-finite price as the CSV says it, and the CSV's column names.
    names.extend(["inf", "kind", "provider", "gpu", "billing", "name"]);
    for (e, was) in &cases {
        reads_in_russian(&e.text(Lang::En), &e.text(Lang::Ru), was, &names);
        assert_eq!(e.to_string(), *was);
    }
    // The JSON keeps `{line, field, message}`, the message in English.
    let v = serde_json::to_value(&cases[0].0).unwrap();
    assert_eq!(v, serde_json::json!({"line": 2, "field": "on_demand_usd_h", "message": "inf is not a number"}));
    assert!(cases[1].0.text(Lang::Ru).contains("-3,5"), "{}", cases[1].0.text(Lang::Ru));
}

#[test]
fn an_unreadable_log_is_refused_in_russian() {
    let q = tunefit_core::Query::parse("model=llama-3.1-8b").unwrap();
    let e = tunefit_core::calibrate::calibrate(&q, "Step 10 | loss: 1.2").unwrap_err();
    assert_eq!(e.key(), Some("log"));
    assert_eq!(e.to_string(), "log: no recognised figure in this log: expected torchtune's memory stats or tokens_per_second_per_gpu, HF Trainer's train_samples_per_second/train_steps_per_second, Unsloth's 'Peak reserved memory =', litgpt's 'Memory used:', or an nvidia-smi table");
    let u = tunefit_core::calibrate::parse_log("Step 10 | loss: 1.2").unwrap_err();
    assert_eq!(format!("log: {}", u.text(Lang::En)), e.to_string());
    reads_in_russian(u.text(Lang::En), u.text(Lang::Ru), &u.to_string(), &[]);
    let case = tunefit_core::calibrate::measured_cases_json_in("model=llama-3.1-8b", "nothing", Lang::Ru);
    let v: serde_json::Value = serde_json::from_str(&case).unwrap();
    assert!(is_russian(v["error"].as_str().unwrap()), "{case}");
}
