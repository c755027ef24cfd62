//! The page's "Plan a run · compare with my run" panel, written here as markup
//! (`tunefit_core::markup`, text escaped unless it is a literal of this file): its
//! strings (English and Russian), its figures' formatting and the core's planning and log
//! reading load with this module when the panel opens, not with the page (src/components/
//! plan.rs only asks and shows). Buttons carry `data-act` (the page's one listener): `plans`,
//! `plan:<query>` (apply a plan), `set:<key=value>` (apply the measured speed), `compare`,
//! `case`; fields carry `data-key` (a query key, or `log`).

use tunefit_core::diag::Lang;
use tunefit_core::markup::Html;
use tunefit_core::query::{Goal, Query};
use tunefit_core::write_html;

struct Strings {
    hint: &'static str,
    budget: &'static str,
    deadline: &'static str,
    goal: &'static str,
    find: &'static str,
    none: &'static str,
    same: &'static str,
    apply: &'static str,
    per_gpu: &'static str,
    calib_title: &'static str,
    calib_hint: &'static str,
    compare: &'static str,
    case: &'static str,
    measured: &'static str,
    estimated: &'static str,
    speed: fn(ratio: &str, basis: &str) -> String,
    use_speed: &'static str,
    use_memory: &'static str,
    hours: &'static str,
}

static EN: Strings = Strings {
    hint: "The cheapest (or fastest, or least risky) ways to run this job within a budget and a deadline; each is a link you can apply.",
    budget: "Budget, USD",
    deadline: "Deadline, hours",
    goal: "Goal",
    find: "Find plans",
    none: "No plan fits within these limits: raise the budget or the deadline.",
    same: "your settings",
    apply: "Apply",
    per_gpu: "per GPU",
    calib_title: "Compare with my run",
    calib_hint: "Paste what your run printed: torchtune's memory stats, HF Trainer's final metrics, Unsloth's or litgpt's memory line, or an nvidia-smi table.",
    compare: "Compare",
    case: "Download as a measured case",
    measured: "measured",
    estimated: "estimated",
    speed: |r, b| format!("Your run went at {r} the estimated speed ({b})."),
    use_speed: "Use my speed for the time and cost",
    use_memory: "Scale the memory to my run",
    hours: "h",
};

static RU: Strings = Strings {
    hint: "Самые дешёвые (быстрые или надёжные) способы обучить в пределах бюджета и срока; каждый — ссылка, которую можно применить.",
    budget: "Бюджет, USD",
    deadline: "Срок, часов",
    goal: "Цель",
    find: "Найти планы",
    none: "В эти пределы не укладывается ни один план: увеличьте бюджет или срок.",
    same: "ваши настройки",
    apply: "Применить",
    per_gpu: "на GPU",
    calib_title: "Сравнение с моим запуском",
    calib_hint: "Вставьте то, что напечатал ваш запуск: статистику памяти torchtune, итоговые метрики HF Trainer, строку памяти Unsloth или litgpt, таблицу nvidia-smi.",
    compare: "Сравнить",
    case: "Скачать как измеренный случай",
    measured: "измерено",
    estimated: "оценка",
    speed: |r, b| format!("Ваш запуск шёл со скоростью {r} от оценки ({b})."),
    use_speed: "Считать время и цену по моей скорости",
    use_memory: "Масштабировать память по моему запуску",
    hours: "ч",
};

/// A goal's name in the goal picker: the query's value in English, words in Russian.
fn goal_label(g: Goal, lang: &str) -> &'static str {
    match (lang, g) {
        ("ru", Goal::Cheapest) => "дешевле",
        ("ru", Goal::Fastest) => "быстрее",
        ("ru", Goal::Quality) => "качество",
        _ => g.as_str(),
    }
}

fn strings(lang: &str) -> &'static Strings {
    if lang == "ru" {
        &RU
    } else {
        &EN
    }
}

/// A number with `decimals` places, in the language's decimal sign.
fn number(x: f64, decimals: usize, lang: &str) -> String {
    let s = format!("{x:.decimals$}");
    if lang == "ru" {
        s.replace('.', ",")
    } else {
        s
    }
}

/// Bytes in GiB (or GB), two decimals, the language's decimal sign (also the memory chart's).
pub(crate) fn bytes(b: f64, gib: bool, lang: &str) -> String {
    format!("{}\u{a0}{}", number(b / if gib { 1073741824.0 } else { 1e9 }, 2, lang), if gib { "GiB" } else { "GB" })
}

fn warn(m: &str) -> Html {
    let mut h = Html::new();
    write_html!(h, r#"<p class="notice warn" data-testid="plan-error">"#, m, "</p>");
    h
}

/// A plan's cost in its currency (the query's display currency): "$12.30", "€12.30", "930 ₽".
fn money(x: f64, code: &str, lang: &str) -> String {
    tunefit_core::query::with_sign(code, &number(x, 2, lang))
}

/// The fields: budget, deadline and goal from `query`, the refused limit's message, the log.
pub fn form_html(query: &str, lang: &str, problem: &str, log: &str) -> Html {
    let s = strings(lang);
    let q = Query::parse(query).unwrap_or_default();
    let shown = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    let mut h = Html::new();
    write_html!(
        h,
        r#"<p class="hint">"#,
        s.hint,
        r#"</p><div class="plan-limits"><label>"#,
        s.budget,
        r#" <input type="text" inputmode="decimal" data-testid="plan-budget" data-key="budget_usd" value=""#,
        shown(q.budget_usd),
        r#""></label><label>"#,
        s.deadline,
        r#" <input type="text" inputmode="decimal" data-testid="plan-deadline" data-key="deadline_h" value=""#,
        shown(q.deadline_h),
        r#""></label><label>"#,
        s.goal,
        r#" <select data-testid="plan-goal" data-key="goal">"#
    );
    for g in Goal::ALL {
        write_html!(h, r#"<option value=""#, g.as_str(), r#"""#);
        if *g == q.goal {
            write_html!(h, " selected");
        }
        write_html!(h, ">", goal_label(*g, lang), "</option>");
    }
    write_html!(
        h,
        r#"</select></label><button type="button" data-act="plans" data-testid="plan-find">"#,
        s.find,
        "</button></div>"
    );
    if !problem.is_empty() {
        write_html!(h, r#"<p class="notice warn" role="alert" data-testid="plan-limit-error">"#, problem, "</p>");
    }
    write_html!(
        h,
        "<h3>",
        s.calib_title,
        r#"</h3><p class="hint">"#,
        s.calib_hint,
        r#"</p><textarea rows="4" data-testid="calibration-log" data-key="log">"#,
        log,
        r#"</textarea><p><button type="button" data-act="compare" data-testid="calibration-compare">"#,
        s.compare,
        r#"</button> <button type="button" data-act="case" data-testid="calibration-case">"#,
        s.case,
        "</button></p>"
    );
    h
}

/// The plans for the query's goal, budget and deadline, each with its Apply button.
pub fn plans_html(query: &str, lang: &str, gib: bool) -> Html {
    let s = strings(lang);
    let q = match Query::parse(query) {
        Ok(q) => q,
        Err(e) => return warn(&tunefit_core::Error::from(e).text(Lang::from_code(lang))),
    };
    let plans = match tunefit_core::plan::plan(&q) {
        Ok(p) => p,
        Err(e) => return warn(&e.text(Lang::from_code(lang))),
    };
    let mut h = Html::new();
    if plans.is_empty() {
        write_html!(h, r#"<p class="muted" data-testid="plan-none">"#, s.none, "</p>");
        return h;
    }
    write_html!(h, r#"<ol data-testid="plans">"#);
    for p in &plans {
        let gives_up = if p.gives_up.is_empty() {
            s.same.to_string()
        } else {
            p.gives_up.iter().map(|c| c.text(Lang::from_code(lang))).collect::<Vec<_>>().join("; ")
        };
        write_html!(
            h,
            r#"<li data-testid="plan" data-usd=""#,
            p.usd,
            r#"" data-hours=""#,
            p.hours,
            r#""><button type="button" data-act="plan:"#,
            p.query,
            r#"">"#,
            s.apply,
            "</button> ",
            p.offer,
            " (",
            p.gpus,
            " × ",
            p.gpu,
            "): ",
            number(p.hours, 1, lang),
            "&nbsp;",
            s.hours,
            ", ",
            money(p.usd, p.currency, lang),
            ", ",
            bytes(p.device as f64, gib, lang),
            " ",
            s.per_gpu,
            " — ",
            gives_up,
            "</li>"
        );
    }
    write_html!(h, "</ol>");
    h
}

/// A pasted log beside the estimate: each memory figure with the estimate's error, the
/// measured speed against the estimate with a button that applies it as `mfu`.
pub fn calibration_html(query: &str, log: &str, lang: &str, gib: bool) -> Html {
    let s = strings(lang);
    let q = match Query::parse(query) {
        Ok(q) => q,
        Err(e) => return warn(&tunefit_core::Error::from(e).text(Lang::from_code(lang))),
    };
    // The log's own error in the page's language (`calibrate` gives it in English).
    if let Err(u) = tunefit_core::calibrate::parse_log(log) {
        return warn(&format!("log: {}", u.text(Lang::from_code(lang))));
    }
    let c = match tunefit_core::calibrate::calibrate(&q, log) {
        Ok(c) => c,
        Err(e) => return warn(&e.text(Lang::from_code(lang))),
    };
    let mut h = Html::new();
    write_html!(h, r#"<ul data-testid="calibration">"#);
    for (metric, m, p, err) in &c.memory {
        write_html!(
            h,
            r#"<li data-testid="calibration-memory" data-metric=""#,
            metric,
            r#"">"#,
            metric,
            ": ",
            s.measured,
            " ",
            bytes(*m as f64, gib, lang),
            ", ",
            s.estimated,
            " ",
            bytes(*p as f64, gib, lang),
            " (",
            format_args!("{:+.0}", err * 100.0),
            "%)</li>"
        );
    }
    // The largest measured/estimated ratio of the figures read (the cautious one), as the
    // query's `mem_scale`: every memory peak of this setup is scaled by it.
    if let Some(scale) = c.memory.iter().map(|(_, m, p, _)| *m as f64 / (*p).max(1) as f64).reduce(f64::max) {
        let scale = scale.clamp(0.1, 10.0);
        write_html!(
            h,
            r#"<li data-testid="calibration-scale"><button type="button" data-act="set:mem_scale="#,
            format_args!("{scale:.4}"),
            r#"">"#,
            s.use_memory,
            "</button> (×",
            number(scale, 3, lang),
            ")</li>"
        );
    }
    if let (Some(ratio), Some(mfu)) = (c.speed_ratio, c.measured_mfu) {
        write_html!(
            h,
            r#"<li data-testid="calibration-speed">"#,
            (s.speed)(&format!("{}×", number(ratio, 2, lang)), c.speed_basis.text(Lang::from_code(lang))),
            r#" <button type="button" data-act="set:mfu="#,
            format_args!("{mfu:.3}"),
            r#"">"#,
            s.use_speed,
            "</button></li>"
        );
    }
    write_html!(h, "</ul>");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_carry_their_queries_and_bad_input_is_said() {
        let h = plans_html("model=llama-3.1-8b&method=lora&batch=4&seq=2048&budget_usd=50", "en", true).into_string();
        assert!(h.contains(r#"data-act="plan:"#) && h.contains("GiB"), "{h}");
        assert!(plans_html("model=nope", "en", true).as_str().contains("plan-error"));
        assert!(plans_html("model=llama-3.1-8b&budget_usd=0.01", "ru", true).as_str().contains("не укладывается"));
        // Each plan's cost in the display currency; the budget stays dollars.
        let rub = plans_html("model=llama-3.1-8b&method=lora&batch=4&seq=2048&budget_usd=50&currency=rub", "en", true);
        assert!(rub.as_str().contains("\u{a0}₽") && !rub.as_str().contains(", $"), "{}", rub.as_str());
    }

    #[test]
    fn calibration_shows_each_figure_and_the_speed_button() {
        let h = calibration_html(
            "model=llama-3.1-8b&method=lora&gpu=a100-80gb",
            "\tGPU peak memory reserved: 21.00 GiB\ntokens_per_second_per_gpu:1500",
            "en",
            true,
        )
        .into_string();
        assert!(h.contains(r#"data-metric="reserved""#) && h.contains("measured 21.00"), "{h}");
        assert!(h.contains(r#"data-act="set:mfu="#), "{h}");
        assert!(calibration_html("model=llama-3.1-8b", "<script>", "en", true)
            .as_str()
            .contains("log: no recognised figure"));
        // A log that cannot be read is said in the panel's language.
        let ru = calibration_html("model=llama-3.1-8b", "nothing", "ru", true).into_string();
        assert!(ru.contains("log: в логе нет ни одной знакомой цифры"), "{ru}");
        // A bad query comes before the log, as in `calibrate`.
        assert!(!calibration_html("batch=-3", "nothing", "ru", true).as_str().contains("в логе"));
    }

    /// Text from a link or a paste (a key in the query, the log, a refused limit's
    /// message) comes out as text in every part of the panel: no element, no attribute.
    #[test]
    fn hostile_text_stays_text_in_every_part() {
        let hostile = r#"<img src=x onerror="alert(1)">'"#;
        // A query error names the key as the link spelled it.
        let link = format!("v=1&{}=1", tunefit_core::query::percent_encode(hostile));
        let parts = [
            form_html(&link, "en", hostile, hostile),
            plans_html(&link, "en", true),
            calibration_html(&link, hostile, "en", true),
            calibration_html("v=1&model=llama-3.1-8b", hostile, "en", true),
        ];
        for h in parts {
            let h = h.as_str();
            assert!(!h.contains("<img") && !h.contains(r#"onerror=""#), "{h}");
        }
        assert!(form_html("", "en", "", "<b>x</b>").as_str().contains("&lt;b&gt;x"));
    }
}
