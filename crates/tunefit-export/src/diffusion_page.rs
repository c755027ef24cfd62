//! The page for an image or video diffusion model's link (`tunefit_core::diffusion`), written
//! here as markup so that its models, its memory model and its strings (English and Russian)
//! load with this module when such a link is opened, not with the page (src/components/
//! diffusion.rs only asks, shows, and turns a field's change into the link).
//!
//! Every field carries `data-key` (a key of `diffusion::job::KEYS`) and shows the link's own
//! value, even one that does not parse, so a bad value is named and nothing typed is lost.

use tunefit_core::diag::Lang;
use tunefit_core::diffusion::job::{self, Job};
use tunefit_core::diffusion::{self, models, DiffusionReport};
use tunefit_core::markup::Html;
use tunefit_core::solve::Verdict;
use tunefit_core::write_html;

struct Strings {
    tagline: &'static str,
    title: &'static str,
    back: &'static str,
    model: &'static str,
    method: &'static str,
    rank: &'static str,
    targets: &'static str,
    adapter_dtype: &'static str,
    weights: &'static str,
    res: &'static str,
    frames: &'static str,
    batch: &'static str,
    text_tokens: &'static str,
    ckpt: &'static str,
    ckpt_every: &'static str,
    optim: &'static str,
    text_enc: &'static str,
    text_weights: &'static str,
    latents: &'static str,
    swap: &'static str,
    gpu: &'static str,
    no_gpu: &'static str,
    fits: &'static str,
    tight: &'static str,
    no_fit: &'static str,
    on_device: &'static str,
    reserved: &'static str,
    allocated: &'static str,
    peak_in: &'static str,
    terms: [&'static str; 8],
    trained: &'static str,
    band: fn(low: &str, high: &str) -> String,
    scope: &'static str,
    errors: &'static str,
    steps: &'static str,
    time: fn(step: &str, steps: u64, hours: &str) -> String,
    /// The run's cost on `gpus` GPUs at `per_h` a GPU-hour.
    cost: fn(usd: &str, per_h: &str, gpus: u64) -> String,
    no_price: &'static str,
    lower_bound: &'static str,
    /// Above the fixes: changes that lower the memory, each re-evaluated.
    fixes: &'static str,
    every_gpu: &'static str,
    open_full: &'static str,
    gpu_columns: [&'static str; 4],
    remove: &'static str,
    ema: &'static str,
    prior: &'static str,
    gpus: &'static str,
    shard: &'static str,
    /// The chart's heading, and the note when the VAE's encoding sets the peak outside it.
    timeline: &'static str,
    vae_outside: fn(figure: &str) -> String,
}

static EN: Strings = Strings {
    tagline: "Fine-tuning GPU calculator: memory, fit, time and cost, computed in your browser.",
    title: "Image and video models (diffusion)",
    back: "Language models",
    model: "Model",
    method: "Method",
    rank: "LoRA rank",
    targets: "LoRA on",
    adapter_dtype: "LoRA weights in",
    weights: "Frozen transformer stored in",
    res: "Resolution (W×H px)",
    frames: "Frames",
    batch: "Batch",
    text_tokens: "Text tokens",
    ckpt: "Gradient checkpointing",
    ckpt_every: "Checkpoint every Nth block",
    optim: "Optimizer",
    text_enc: "Text encoders",
    text_weights: "Text encoders stored in",
    latents: "Latents",
    swap: "Blocks swapped to CPU",
    gpu: "Your GPU",
    no_gpu: "none",
    fits: "fits",
    tight: "tight",
    no_fit: "does not fit",
    on_device: "on the device",
    reserved: "reserved",
    allocated: "allocated",
    peak_in: "peak in the",
    terms: ["Weights", "Text encoders", "VAE", "Adapters", "Gradients", "Optimizer", "Activations", "Workspace"],
    trained: "M trained parameters",
    band: |l, h| format!("the model's error band {l}–{h}"),
    scope: "The time is the model's work on this GPU: the trainer's own work each step (data, logging, the optimizer) comes on top (docs/diffusion.md).",
    errors: "Not applied:",
    steps: "Training steps",
    time: |s, n, h| format!("At least {s} s a step; {n} steps: at least {h} h"),
    cost: |usd, p, n| {
        let on = if n > 1 { format!(" on {n} GPUs") } else { String::new() };
        format!("at least ${usd}{on} at ${p} per GPU-hour (the cheapest listed on-demand offer)")
    },
    no_price: "no listed price for this GPU",
    lower_bound: "lower bound",
    fixes: "What lowers it (click to apply):",
    every_gpu: "Every GPU",
    open_full: "Open in tunefit ↗",
    gpu_columns: ["GPU", "Memory", "This run", "Cheapest on-demand, per GPU-hour"],
    remove: "Remove from the link",
    ema: "EMA copy of the trained weights",
    prior: "Prior preservation (class images)",
    gpus: "GPUs (one instance)",
    shard: "Multi-GPU",
    timeline: "Memory through one step",
    vae_outside: |f| {
        format!("The VAE's encoding at the step's start ({f} allocated) comes before these events and sets the peak.")
    },
};

static RU: Strings = Strings {
    tagline: "Калькулятор GPU для дообучения: память, совместимость, время и стоимость — прямо в браузере.",
    title: "Модели изображений и видео (диффузия)",
    back: "Языковые модели",
    model: "Модель",
    method: "Метод",
    rank: "Ранг LoRA",
    targets: "LoRA на",
    adapter_dtype: "Веса LoRA в",
    weights: "Замороженный трансформер хранится в",
    res: "Разрешение (Ш×В пикс.)",
    frames: "Кадры",
    batch: "Батч",
    text_tokens: "Токены текста",
    ckpt: "Чекпойнтинг градиентов",
    ckpt_every: "Чекпойнт каждого N-го блока",
    optim: "Оптимизатор",
    text_enc: "Текстовые энкодеры",
    text_weights: "Текстовые энкодеры хранятся в",
    latents: "Латенты",
    swap: "Блоков выгружено в ОЗУ",
    gpu: "Ваш GPU",
    no_gpu: "не выбран",
    fits: "помещается",
    tight: "впритык",
    no_fit: "не помещается",
    on_device: "на устройстве",
    reserved: "зарезервировано",
    allocated: "выделено",
    peak_in: "пик:",
    terms: ["Веса", "Текстовые энкодеры", "VAE", "Адаптеры", "Градиенты", "Оптимизатор", "Активации", "Рабочая память"],
    trained: "млн обучаемых параметров",
    band: |l, h| format!("полоса погрешности модели {l}–{h}"),
    scope: "Время — работа самой модели на этом GPU: собственная работа тренера на каждом шаге (данные, логи, оптимизатор) добавляется сверху (docs/diffusion.md).",
    errors: "Не применено:",
    steps: "Шагов обучения",
    time: |s, n, h| format!("Не меньше {s} с на шаг; {n} шагов: не меньше {h} ч"),
    cost: |usd, p, n| {
        let on = if n > 1 { format!(" на {n} GPU") } else { String::new() };
        format!("не меньше ${usd}{on} по ${p} за GPU-час (самое дешёвое предложение по требованию)")
    },
    no_price: "для этого GPU нет цены в каталоге",
    lower_bound: "нижняя граница",
    fixes: "Что снижает память (нажмите, чтобы применить):",
    every_gpu: "Все GPU",
    open_full: "Открыть в tunefit ↗",
    gpu_columns: ["GPU", "Память", "Этот запуск", "Дешевле всего по запросу, за GPU-час"],
    remove: "Убрать из ссылки",
    ema: "EMA-копия обучаемых весов",
    prior: "Сохранение априорного класса (class images)",
    gpus: "GPU (один инстанс)",
    shard: "Несколько GPU",
    timeline: "Память за один шаг",
    vae_outside: |f| format!("Кодирование VAE в начале шага (выделено {f}) идёт до этих событий и задаёт пик."),
};

/// Options of each select: (value, English, Russian).
type Options = &'static [(&'static str, &'static str, &'static str)];
const METHOD: Options = &[("lora", "LoRA", "LoRA"), ("full", "full fine-tuning", "полное дообучение")];
const TARGETS: Options = &[
    ("attn", "attention", "внимание"),
    ("attn+mlp", "attention + MLP", "внимание + MLP"),
    ("all", "every linear", "все линейные слои"),
];
const SHARD: Options = &[
    ("ddp", "DDP: each GPU holds the whole run", "DDP: каждый GPU держит весь прогон"),
    ("fsdp", "FSDP: the transformer sharded", "FSDP: трансформер шардирован"),
];
const OFF_ON: Options = &[("0", "no", "нет"), ("1", "yes", "да")];
const DTYPE: Options = &[("fp32", "fp32", "fp32"), ("bf16", "bf16", "bf16")];
const STORAGE: Options =
    &[("bf16", "bf16", "bf16"), ("fp8", "fp8", "fp8"), ("int8", "int8", "int8"), ("nf4", "NF4", "NF4")];
const CKPT: Options = &[
    ("full", "every block", "каждый блок"),
    ("offload", "every block, inputs in CPU memory", "каждый блок, входы в ОЗУ"),
    ("none", "off", "выключен"),
];
const OPTIM: Options = &[
    ("adamw", "AdamW", "AdamW"),
    ("adamw-8bit", "AdamW 8-bit", "AdamW 8-bit"),
    ("adafactor", "Adafactor", "Adafactor"),
    ("prodigy", "Prodigy", "Prodigy"),
    ("lion", "Lion", "Lion"),
];
const TEXT_ENC: Options = &[
    ("cached", "outputs cached, unloaded", "выходы кешированы, выгружены"),
    ("gpu", "on the GPU", "на GPU"),
    ("train", "on the GPU, CLIP trained", "на GPU, CLIP обучается"),
];
const LATENTS: Options = &[
    ("cached", "cached, VAE unloaded", "кешированы, VAE выгружен"),
    ("encode", "VAE encodes each batch", "VAE кодирует каждый батч"),
];

const GIB: f64 = (1u64 << 30) as f64;

/// Bytes in the page's unit, with the language's decimal sign.
/// `x` with `d` decimals and the language's decimal sign.
fn decimal(x: f64, d: usize, ru: bool) -> String {
    let t = format!("{x:.d$}");
    if ru {
        t.replace('.', ",")
    } else {
        t
    }
}

/// Bytes in the page's unit.
fn size(b: u64, gib: bool, ru: bool) -> String {
    if gib {
        format!("{} GiB", decimal(b as f64 / GIB, 2, ru))
    } else {
        format!("{} GB", decimal(b as f64 / 1e9, 2, ru))
    }
}

/// The value a field shows: the run's own spelling of a key that parses, the link's text of
/// one that does not (so what the person typed stays to be mended).
fn shown(query: &str, j: &Job, key: &str, bad: &[String]) -> String {
    if bad.iter().any(|b| b == key) {
        if let Some((_, v)) = job::pairs(query).filter(|(k, _)| k == key).last() {
            return v;
        }
    }
    j.value(key)
}

fn select(h: &mut Html, label: &str, key: &'static str, value: &str, opts: Options, ru: bool) {
    write_html!(h, r#"<div class="field"><label>"#, label, r#"<select data-key=""#, key, r#"">"#);
    for (v, en, r) in opts {
        let sel = if *v == value { " selected" } else { "" };
        write_html!(h, r#"<option value=""#, v, r#"""#, sel, ">", if ru { r } else { en }, "</option>");
    }
    write_html!(h, "</select></label></div>");
}

fn input(h: &mut Html, label: &str, key: &'static str, value: &str, mode: &'static str) {
    write_html!(
        h,
        r#"<div class="field"><label>"#,
        label,
        r#"<input data-key=""#,
        key,
        r#"" inputmode=""#,
        mode,
        r#"" value=""#,
        value,
        r#""></label></div>"#
    );
}

fn form(h: &mut Html, query: &str, j: &Job, bad: &[String], s: &Strings, ru: bool) {
    let v = |k: &str| shown(query, j, k, bad);
    write_html!(h, r#"<form class="controls card" data-testid="dit-form"><div class="field"><label>"#, s.model);
    write_html!(h, r#"<select data-key="model" data-testid="dit-model">"#);
    for m in models::MODELS {
        let sel = if m.id == j.model.id { " selected" } else { "" };
        write_html!(h, r#"<option value=""#, m.id, r#"""#, sel, ">", m.name, "</option>");
    }
    write_html!(h, r#"<option value="">"#, s.back, " →</option></select></label></div>");
    select(h, s.method, "method", &v("method"), METHOD, ru);
    if j.method == job::Method::Lora {
        input(h, s.rank, "rank", &v("rank"), "numeric");
        select(h, s.targets, "targets", &v("targets"), TARGETS, ru);
        select(h, s.adapter_dtype, "adapter_dtype", &v("adapter_dtype"), DTYPE, ru);
        select(h, s.weights, "weights", &v("weights"), STORAGE, ru);
    }
    input(h, s.res, "res", &v("res"), "text");
    if j.model.kind == models::Kind::Video {
        input(h, s.frames, "frames", &v("frames"), "numeric");
    }
    input(h, s.batch, "batch", &v("batch"), "numeric");
    input(h, s.text_tokens, "text_tokens", &v("text_tokens"), "numeric");
    select(h, s.ckpt, "ckpt", &v("ckpt"), CKPT, ru);
    // SimpleTuner's interval runs in its transformers' loops, not in a UNet.
    if j.ckpt != job::Ckpt::None && j.model.between.is_none() {
        input(h, s.ckpt_every, "ckpt_every", &v("ckpt_every"), "numeric");
    }
    select(h, s.optim, "optim", &v("optim"), OPTIM, ru);
    if !j.model.text_encoders.is_empty() {
        select(h, s.text_enc, "text_enc", &v("text_enc"), TEXT_ENC, ru);
        if j.text_encoders != job::TextEncoders::Cached {
            select(h, s.text_weights, "text_weights", &v("text_weights"), STORAGE, ru);
        }
    }
    if j.model.vae.is_some() {
        select(h, s.latents, "latents", &v("latents"), LATENTS, ru);
    }
    // No trainer swaps a UNet's blocks (the core refuses `swap` there).
    if j.model.between.is_none() {
        input(h, s.swap, "swap", &v("swap"), "numeric");
    }
    input(h, s.steps, "steps", &v("steps"), "numeric");
    select(h, s.ema, "ema", &v("ema"), OFF_ON, ru);
    select(h, s.prior, "prior", &v("prior"), OFF_ON, ru);
    input(h, s.gpus, "gpus", &v("gpus"), "numeric");
    if j.gpus > 1 {
        select(h, s.shard, "shard", &v("shard"), SHARD, ru);
    }
    let gpu = v("gpu");
    write_html!(h, r#"<div class="field"><label>"#, s.gpu, r#"<select data-key="gpu" data-testid="dit-gpu">"#);
    write_html!(h, r#"<option value="">"#, s.no_gpu, "</option>");
    for g in tunefit_core::dataset::gpus() {
        let sel = if g.id == gpu { " selected" } else { "" };
        write_html!(h, r#"<option value=""#, g.id, r#"""#, sel, ">", g.name, "</option>");
    }
    write_html!(h, "</select></label></div></form>");
}

fn results(h: &mut Html, r: &DiffusionReport, j: &Job, s: &Strings, gib: bool, ru: bool) {
    let m = &r.memory;
    write_html!(h, r#"<section class="card" data-testid="dit-results">"#);
    if let Some(f) = &r.fit {
        let (class, word) = match f.verdict {
            Verdict::Fits => ("ok", s.fits),
            Verdict::Tight => ("warn", s.tight),
            Verdict::DoesNotFit => ("bad", s.no_fit),
        };
        write_html!(
            h,
            r#"<p class="verdict" data-testid="dit-verdict"><span class="badge "#,
            class,
            r#"">"#,
            word,
            "</span> ",
            size(m.device, gib, ru),
            " / ",
            size(f.vram, gib, ru),
            " (",
            (s.band)(&size(f.band_low, gib, ru), &size(f.band_high, gib, ru)),
            ")</p>"
        );
    }
    if !r.fixes.is_empty() {
        write_html!(h, r#"<div class="fixes" data-testid="dit-fixes"><p><strong>"#, s.fixes, "</strong></p><ul>");
        for f in &r.fixes {
            write_html!(
                h,
                r#"<li><button type="button" class="fix" data-testid="dit-fix" data-act="set:"#,
                f.set,
                r#"">"#,
                f.set,
                "</button> ",
                size(f.device, gib, ru),
                " ",
            );
            if f.fits {
                write_html!(h, r#"<span class="badge ok">"#, s.fits, "</span> ");
            }
            write_html!(h, r#"<span class="muted">"#, f.note, "</span></li>");
        }
        write_html!(h, "</ul></div>");
    }
    write_html!(
        h,
        r#"<p class="total-line"><span class="total" data-testid="dit-device">"#,
        size(m.device, gib, ru),
        "</span> ",
        s.on_device,
        r#"</p><p class="muted">"#,
        s.reserved,
        " ",
        size(m.reserved, gib, ru),
        " · ",
        s.allocated,
        " ",
        size(m.allocated, gib, ru),
        " · ",
        s.peak_in,
        " ",
        m.peak_phase.label(if ru { Lang::Ru } else { Lang::En }),
        r#"</p><table class="terms"><tbody>"#
    );
    let terms = [m.weights, m.text_encoders, m.vae, m.adapters, m.gradients, m.optimizer, m.activations, m.workspace];
    for (name, b) in s.terms.iter().zip(terms) {
        write_html!(h, "<tr><th>", name, r#"</th><td class="num">"#, size(b, gib, ru), "</td></tr>");
    }
    write_html!(
        h,
        r#"</tbody></table><p class="muted trained">"#,
        decimal(m.trainable as f64 / 1e6, 2, ru),
        " ",
        s.trained,
        r#"</p><ul class="muted">"#
    );
    for a in diffusion::assumptions(j, if ru { Lang::Ru } else { Lang::En }) {
        write_html!(h, "<li>", a, "</li>");
    }
    write_html!(h, "</ul>");
    timeline(h, r, j, s, gib, ru);
    if let Some(t) = &r.time {
        let num = |x: f64, d: usize| decimal(x, d, ru);
        let cost = match (t.usd, t.usd_per_gpu_h) {
            (Some(u), Some(p)) => (s.cost)(&num(u, 2), &num(p, 2), t.gpus),
            _ => s.no_price.to_string(),
        };
        write_html!(
            h,
            r#"<p data-testid="dit-time"><span class="badge warn">"#,
            s.lower_bound,
            "</span> ",
            (s.time)(&num(t.step_s, 2), t.steps, &num(t.hours, 2)),
            "; ",
            cost,
            "</p>"
        );
    }
    gpu_table(h, r, s, gib, ru);
    write_html!(h, r#"<p class="muted scope">"#, s.scope, "</p></section>");
}

/// The allocator replay's allocated and reserved over the load and one step, with the chosen
/// GPU's memory as a line (the language models' chart, timeline_chart.rs).
fn timeline(h: &mut Html, r: &DiffusionReport, j: &Job, s: &Strings, gib: bool, ru: bool) {
    let lang = if ru { "ru" } else { "en" };
    let (points, moment) = diffusion::memory::timeline(j);
    let capacity = r.fit.as_ref().map(|f| f.vram as f64);
    let moment = moment.text(if ru { Lang::Ru } else { Lang::En });
    write_html!(h, r#"<details class="dit-timeline" data-testid="dit-timeline"><summary>"#, s.timeline, "</summary>");
    h.html(&crate::timeline_chart::chart(&points, capacity, &moment, lang, gib));
    let m = &r.memory;
    if m.vae_sets_peak {
        write_html!(h, r#"<p class="muted">"#, (s.vae_outside)(&size(m.allocated, gib, ru)), "</p>");
    }
    write_html!(h, "</details>");
}

/// Every GPU with its verdict for this run and its cheapest on-demand price, smallest memory
/// first; a GPU's name chooses it (the link's `gpu`).
fn gpu_table(h: &mut Html, r: &DiffusionReport, s: &Strings, gib: bool, ru: bool) {
    let [c_gpu, c_memory, c_verdict, c_price] = s.gpu_columns;
    write_html!(
        h,
        r#"<div data-testid="dit-every-gpu"><h3>"#,
        s.every_gpu,
        r#"</h3><div class="scroll" tabindex="0" role="region" aria-label=""#,
        s.every_gpu,
        r#""><table class="data" data-testid="dit-gpus"><thead><tr><th scope="col">"#,
        c_gpu,
        r#"</th><th scope="col" class="num">"#,
        c_memory,
        r#"</th><th scope="col">"#,
        c_verdict,
        r#"</th><th scope="col" class="num">"#,
        c_price,
        "</th></tr></thead><tbody>"
    );
    let chosen = r.fit.as_ref().map(|f| f.gpu.as_str());
    for f in &r.every_gpu {
        let name = tunefit_core::dataset::gpu(&f.gpu).map_or(f.gpu.as_str(), |g| g.name);
        let (class, word) = match f.verdict {
            Verdict::Fits => ("ok", s.fits),
            Verdict::Tight => ("warn", s.tight),
            Verdict::DoesNotFit => ("bad", s.no_fit),
        };
        let price = f.usd_per_gpu_h.map_or_else(|| "—".to_string(), |p| format!("${}", decimal(p, 2, ru)));
        write_html!(h, r#"<tr data-testid="dit-gpu-row-"#, f.gpu, r#"""#);
        if chosen == Some(f.gpu.as_str()) {
            write_html!(h, r#" class="selected""#);
        }
        write_html!(
            h,
            r#"><th scope="row"><button type="button" class="link" data-act="set:gpu="#,
            f.gpu,
            r#"">"#,
            name,
            r#"</button></th><td class="num" data-label=""#,
            c_memory,
            r#"">"#,
            size(f.vram, gib, ru),
            r#"</td><td data-label=""#,
            c_verdict,
            r#""><span class="badge "#,
            class,
            r#"">"#,
            word,
            r#"</span></td><td class="num" data-label=""#,
            c_price,
            r#"">"#,
            price,
            "</td></tr>"
        );
    }
    write_html!(h, "</tbody></table></div></div>");
}

/// The page for a diffusion link: its fields and, when the link parses, the report; when it
/// does not, the bad keys named in `lang` beside the fields as the link has them.
pub fn html(query: &str, lang: &str, gib: bool) -> Html {
    let ru = Lang::from_code(lang) == Lang::Ru;
    let s = if ru { &RU } else { &EN };
    let mut h = Html::with_capacity(8192);
    // The link home keeps the language.
    let home = if ru { "?lang=ru" } else { "?" };
    write_html!(
        h,
        r#"<header class="top"><div><h1><a href=""#,
        home,
        r#"">tunefit</a></h1><p class="tagline muted">"#,
        s.tagline,
        "</p></div></header>"
    );
    write_html!(h, r#"<h2>"#, s.title, "</h2>");
    let parsed = diffusion::parse(query);
    let bad: Vec<String> =
        parsed.as_ref().err().map(|e| e.0.iter().map(|e| e.key.clone()).collect()).unwrap_or_default();
    // The fields of the run as far as the link reads, while its bad keys are named.
    let shown_job =
        parsed.as_ref().ok().cloned().or_else(|| job::lenient(query)).or_else(|| job::default_job("flux.1-dev"));
    let Some(j) = shown_job else { return h };
    // The widget's one-line header (shown only with `embed=1`): what it shows, and the full
    // calculator with the same run in a new tab.
    if let Ok(j) = &parsed {
        let gpu = j.gpu.as_deref().and_then(tunefit_core::dataset::gpu).map(|g| g.name);
        let method = j.value("method");
        write_html!(
            h,
            r#"<p class="embed-head" data-testid="embed-head"><strong>"#,
            j.model.name,
            "</strong> · ",
            method
        );
        if let Some(g) = gpu {
            write_html!(h, " · ", g);
        }
        let units = if gib { "" } else { "&units=gb" };
        let lang_key = if ru { "&lang=ru" } else { "" };
        write_html!(
            h,
            r#" <a href="?"#,
            query,
            lang_key,
            units,
            r#"" target="_blank" rel="noopener" data-testid="embed-open">"#,
            s.open_full,
            "</a></p>"
        );
    }
    write_html!(h, r#"<div class="layout">"#);
    form(&mut h, query, &j, &bad, s, ru);
    write_html!(h, r#"<div class="results">"#);
    match parsed {
        Ok(j) => results(&mut h, &diffusion::report_in(&j, if ru { Lang::Ru } else { Lang::En }), &j, s, gib, ru),
        Err(e) => {
            write_html!(
                h,
                r#"<div class="notice warn" role="alert" data-testid="dit-errors"><p>"#,
                s.errors,
                "</p><ul>"
            );
            for err in &e.0 {
                write_html!(
                    h,
                    "<li><code>",
                    err.key,
                    "</code>: ",
                    tunefit_core::diag::query_problem(err, Lang::from_code(lang)),
                    // Each bad key can be taken out of the link: some (a key of another model,
                    // an unknown one) have no field to mend them in.
                    r#" <button type="button" data-act="drop:"#,
                    err.key,
                    r#"">"#,
                    s.remove,
                    "</button></li>"
                );
            }
            write_html!(h, "</ul></div>");
        }
    }
    write_html!(h, "</div></div>");
    h
}

#[cfg(test)]
mod tests {
    use super::html;

    #[test]
    fn a_hostile_value_stays_text_in_its_field_and_is_named() {
        let h = html("model=flux.1-dev&res=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", "en", true).into_string();
        assert!(!h.contains("<img"), "{h}");
        assert!(
            h.contains(r#"value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;""#),
            "the field keeps what the link said"
        );
        assert!(h.contains(r#"data-testid="dit-errors""#) && h.contains("<code>res</code>"));
        assert!(!h.contains("dit-device"), "no figure from a link that does not parse");
    }

    #[test]
    fn fields_follow_the_model_and_the_language() {
        let image = html("model=flux.1-dev", "en", true).into_string();
        assert!(!image.contains(r#"data-key="frames""#) && image.contains(r#"data-key="text_enc""#));
        let video = html("model=wan2.1-14b&gpu=h100-sxm", "ru", false).into_string();
        assert!(
            video.contains(r#"data-key="frames""#) && !video.contains(r#"data-key="text_enc""#),
            "Wan's encoder has no cited size"
        );
        assert!(video.contains("Кадры") && video.contains(" GB") && video.contains("помещается"), "{video}");
        // Every GPU is listed with its verdict; the chosen one is marked, a name chooses it.
        let table = html("model=flux.1-dev&gpu=rtx-4090", "en", true).into_string();
        assert!(table.contains(r#"data-testid="dit-gpu-row-rtx-4090" class="selected""#), "{table}");
        assert!(table.contains(r#"data-act="set:gpu=a100-80gb""#) && table.contains("dit-gpu-row-h100-sxm"));
        // The widget's header names the run and links to the full page with the same link.
        assert!(table.contains(r#"<p class="embed-head" data-testid="embed-head"><strong>FLUX.1 [dev]</strong> · lora · RTX 4090 <a href="?model=flux.1-dev&amp;gpu=rtx-4090""#), "{table}");
        // A UNet has no swap field; a transformer has.
        let unet = html("model=sdxl&gpu=rtx-4090", "en", false).into_string();
        assert!(!unet.contains(r#"data-key="swap""#) && image.contains(r#"data-key="swap""#));
        assert!(!unet.contains(r#"data-key="ckpt_every""#) && image.contains(r#"data-key="ckpt_every""#));
        let none = html("model=flux.1-dev&ckpt=none", "en", true).into_string();
        assert!(!none.contains(r#"data-key="ckpt_every""#), "no interval without checkpointing");
        assert!(unet.contains("Stable Diffusion XL") && unet.contains("fits"), "{unet}");
        // Full fine-tuning has no LoRA fields.
        let full = html("model=flux.1-dev&method=full", "en", true).into_string();
        assert!(!full.contains(r#"data-key="rank""#) && full.contains("dit-device"));
        // While a bad key is named, the fields are those of the run as far as the link reads,
        // and the bad key can be taken out of the link.
        let bad = html("model=flux.1-dev&method=full&res=abc&colour=red", "en", true).into_string();
        assert!(!bad.contains(r#"data-key="rank""#), "method=full still applies");
        assert!(bad.contains(r#"data-act="drop:res""#) && bad.contains(r#"data-act="drop:colour""#));
        // A value that parses shows as the run spells it ('+' read as a space in a link).
        let plus = html("model=flux.1-dev&targets=attn+mlp", "en", true).into_string();
        assert!(plus.contains(r#"<option value="attn+mlp" selected>"#), "{plus}");
    }

    #[test]
    fn the_chart_draws_the_replay_and_says_when_the_vae_sets_the_peak() {
        let h = html("model=flux.1-dev&gpu=rtx-4090", "en", true).into_string();
        for id in ["dit-timeline", "timeline-chart", "timeline-allocated", "timeline-reserved", "timeline-capacity"] {
            assert!(h.contains(id), "{id} missing");
        }
        assert!(h.contains("Memory through one step") && h.contains("Peak: "), "{h}");
        // Without a GPU there is no capacity line; Russian speaks Russian.
        let ru = html("model=flux.1-dev", "ru", false).into_string();
        assert!(ru.contains("Память за один шаг") && ru.contains("Пик: ") && !ru.contains("timeline-capacity"));
        // SDXL's VAE encoding four 2048 px images each step, its blocks' inputs offloaded, sets
        // the peak before the replay's events: the page says so rather than leave a curve
        // below the headline figure unexplained.
        let vae = html("model=sdxl&res=2048&latents=encode&batch=4&ckpt=offload", "en", true).into_string();
        let r = tunefit_core::diffusion::evaluate("model=sdxl&res=2048&latents=encode&batch=4&ckpt=offload").unwrap();
        let (points, _) =
            tunefit_core::diffusion::memory::timeline(&tunefit_core::diffusion::job::parse(&r.query).unwrap());
        assert!(r.memory.allocated > points.iter().map(|p| p.allocated).max().unwrap());
        assert!(vae.contains("encoding at the step&#39;s start"), "{vae}");
        assert!(!h.contains("encoding at the step"), "cached latents: no VAE at all");
    }
}
