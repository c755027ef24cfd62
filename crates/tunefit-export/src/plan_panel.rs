//! The page's "Plan a run · compare with my run" panel, written here as escaped markup: its
//! strings (English and Russian), its figures' formatting and the core's planning and log
//! reading load with this module when the panel opens, not with the page (src/components/
//! plan.rs only asks and shows). Buttons carry `data-act` (the page's one listener): `plans`,
//! `plan:<query>` (apply a plan), `set:<key=value>` (apply the measured speed), `compare`,
//! `case`; fields carry `data-key` (a query key, or `log`).

use std::fmt::Write;
use tunefit_core::query::{Goal, Query};

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

fn strings(lang: &str) -> &'static Strings {
    if lang == "ru" {
        &RU
    } else {
        &EN
    }
}

/// `s` escaped for text and attribute values (the page's own escaper).
fn esc(s: &str) -> String {
    tunefit_core::markup::esc(s).to_string()
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

fn warn(m: &str) -> String {
    format!(r#"<p class="notice warn" data-testid="plan-error">{}</p>"#, esc(m))
}

/// The fields: budget, deadline and goal from `query`, the refused limit's message, the log.
pub fn form_html(query: &str, lang: &str, problem: &str, log: &str) -> String {
    let s = strings(lang);
    let q = Query::parse(query).unwrap_or_default();
    let shown = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    let mut h = format!(
        r#"<p class="hint">{}</p><div class="plan-limits"><label>{} <input type="text" inputmode="decimal" data-testid="plan-budget" data-key="budget_usd" value="{}"></label><label>{} <input type="text" inputmode="decimal" data-testid="plan-deadline" data-key="deadline_h" value="{}"></label><label>{} <select data-testid="plan-goal" data-key="goal">"#,
        esc(s.hint),
        esc(s.budget),
        esc(&shown(q.budget_usd)),
        esc(s.deadline),
        esc(&shown(q.deadline_h)),
        esc(s.goal)
    );
    for g in Goal::ALL {
        let _ = write!(
            h,
            r#"<option value="{0}"{1}>{0}</option>"#,
            g.as_str(),
            if *g == q.goal { " selected" } else { "" }
        );
    }
    let _ = write!(
        h,
        r#"</select></label><button type="button" data-act="plans" data-testid="plan-find">{}</button></div>"#,
        esc(s.find)
    );
    if !problem.is_empty() {
        let _ = write!(h, r#"<p class="notice warn" role="alert" data-testid="plan-limit-error">{}</p>"#, esc(problem));
    }
    let _ = write!(
        h,
        r#"<h3>{}</h3><p class="hint">{}</p><textarea rows="4" data-testid="calibration-log" data-key="log">{}</textarea><p><button type="button" data-act="compare" data-testid="calibration-compare">{}</button> <button type="button" data-act="case" data-testid="calibration-case">{}</button></p>"#,
        esc(s.calib_title),
        esc(s.calib_hint),
        esc(log),
        esc(s.compare),
        esc(s.case)
    );
    h
}

/// The plans for the query's goal, budget and deadline, each with its Apply button.
pub fn plans_html(query: &str, lang: &str, gib: bool) -> String {
    let s = strings(lang);
    let q = match Query::parse(query) {
        Ok(q) => q,
        Err(e) => return warn(&e.to_string()),
    };
    let plans = match tunefit_core::plan::plan(&q) {
        Ok(p) => p,
        Err(e) => return warn(&e.to_string()),
    };
    if plans.is_empty() {
        return format!(r#"<p class="muted" data-testid="plan-none">{}</p>"#, esc(s.none));
    }
    let mut h = String::from(r#"<ol data-testid="plans">"#);
    for p in &plans {
        let gives_up = if p.gives_up.is_empty() { s.same.to_string() } else { p.gives_up.join("; ") };
        let _ = write!(
            h,
            r#"<li data-testid="plan" data-usd="{}" data-hours="{}"><button type="button" data-act="plan:{}">{}</button> {} ({} × {}): {}&nbsp;{}, ${}, {} {} — {}</li>"#,
            p.usd,
            p.hours,
            esc(&p.query),
            esc(s.apply),
            esc(&p.offer),
            p.gpus,
            esc(&p.gpu),
            number(p.hours, 1, lang),
            s.hours,
            number(p.usd, 2, lang),
            bytes(p.device as f64, gib, lang),
            s.per_gpu,
            esc(&gives_up)
        );
    }
    h + "</ol>"
}

/// A pasted log beside the estimate: each memory figure with the estimate's error, the
/// measured speed against the estimate with a button that applies it as `mfu`.
pub fn calibration_html(query: &str, log: &str, lang: &str, gib: bool) -> String {
    let s = strings(lang);
    let q = match Query::parse(query) {
        Ok(q) => q,
        Err(e) => return warn(&e.to_string()),
    };
    let c = match tunefit_core::calibrate::calibrate(&q, log) {
        Ok(c) => c,
        Err(e) => return warn(&e.to_string()),
    };
    let mut h = String::from(r#"<ul data-testid="calibration">"#);
    for (metric, m, p, err) in &c.memory {
        let _ = write!(
            h,
            r#"<li data-testid="calibration-memory" data-metric="{}">{}: {} {}, {} {} ({:+.0}%)</li>"#,
            esc(metric),
            esc(metric),
            s.measured,
            bytes(*m as f64, gib, lang),
            s.estimated,
            bytes(*p as f64, gib, lang),
            err * 100.0
        );
    }
    // The largest measured/estimated ratio of the figures read (the cautious one), as the
    // query's `mem_scale`: every memory peak of this setup is scaled by it.
    if let Some(scale) = c.memory.iter().map(|(_, m, p, _)| *m as f64 / (*p).max(1) as f64).reduce(f64::max) {
        let scale = scale.clamp(0.1, 10.0);
        let _ = write!(
            h,
            r#"<li data-testid="calibration-scale"><button type="button" data-act="set:mem_scale={:.3}">{}</button> (×{})</li>"#,
            scale,
            esc(s.use_memory),
            number(scale, 3, lang)
        );
    }
    if let (Some(ratio), Some(mfu)) = (c.speed_ratio, c.measured_mfu) {
        let _ = write!(
            h,
            r#"<li data-testid="calibration-speed">{} <button type="button" data-act="set:mfu={:.3}">{}</button></li>"#,
            esc(&(s.speed)(&format!("{}×", number(ratio, 2, lang)), &c.speed_basis)),
            mfu,
            esc(s.use_speed)
        );
    }
    h + "</ul>"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_carry_their_queries_and_bad_input_is_said() {
        let h = plans_html("model=llama-3.1-8b&method=lora&batch=4&seq=2048&budget_usd=50", "en", true);
        assert!(h.contains(r#"data-act="plan:"#) && h.contains("GiB"), "{h}");
        assert!(plans_html("model=nope", "en", true).contains("plan-error"));
        assert!(plans_html("model=llama-3.1-8b&budget_usd=0.01", "ru", true).contains("не укладывается"));
    }

    #[test]
    fn calibration_shows_each_figure_and_the_speed_button() {
        let h = calibration_html(
            "model=llama-3.1-8b&method=lora&gpu=a100-80gb",
            "\tGPU peak memory reserved: 21.00 GiB\ntokens_per_second_per_gpu:1500",
            "en",
            true,
        );
        assert!(h.contains(r#"data-metric="reserved""#) && h.contains("measured 21.00"), "{h}");
        assert!(h.contains(r#"data-act="set:mfu="#), "{h}");
        assert!(calibration_html("model=llama-3.1-8b", "<script>", "en", true).contains("no recognised figure"));
        // The log is escaped where it is written back.
        assert!(form_html("", "en", "", "<b>x</b>").contains("&lt;b&gt;x"));
    }
}
