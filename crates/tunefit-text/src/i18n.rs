//! The page's words: a typed string table, one `Strings` value per language.
//!
//! Every visible string of the page comes from here. Adding a field to `Strings` fails to
//! compile until both languages fill it, so no language can fall behind. Strings that take
//! values are `fn` fields, so the word order can differ between languages.

use std::fmt;
use tunefit_core::diag::plural_ru;

/// A language of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];
    /// BCP 47 tag: the `lang` attribute of <html> and the `lang=` URL key.
    /// The core's language, in which it renders its warnings and explanations.
    pub fn core(self) -> tunefit_core::diag::Lang {
        match self {
            Lang::En => tunefit_core::diag::Lang::En,
            Lang::Ru => tunefit_core::diag::Lang::Ru,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }
    /// The language of a code the page sends the lazily loaded module ("ru" is Russian; any
    /// other is English), as this build shows it.
    pub fn from_code(code: &str) -> Lang {
        Lang::parse(code).unwrap_or(Lang::En).built()
    }
    pub fn parse(s: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == s)
    }
    /// The language's own name, for the picker.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ru => "Русский",
        }
    }
    /// Decimal separator of the language's usual number format.
    pub fn decimal(self) -> char {
        match self.built() {
            Lang::En => '.',
            Lang::Ru => ',',
        }
    }
    /// The language this build shows `self` in: itself where the build has the Russian
    /// strings, English in the page's English build (the core's rule, `diag::Lang::built`:
    /// the page's `ru` feature is the core's), which reloads into the Russian build as soon as
    /// Russian is chosen (state.rs). A constant there, so no Russian text is linked.
    pub fn built(self) -> Lang {
        match self.core().built() {
            // The page's Russian build (`ru-only`): Russian whatever is asked; choosing English
            // reloads into the English build (state.rs).
            tunefit_core::diag::Lang::Ru if cfg!(feature = "ru-only") => Lang::Ru,
            tunefit_core::diag::Lang::Ru => self,
            tunefit_core::diag::Lang::En => Lang::En,
        }
    }
    pub fn strings(self) -> &'static Strings {
        match self.built() {
            Lang::En => &EN,
            Lang::Ru => &RU,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Every UI string, for one language.
pub struct Strings {
    pub title: &'static str,
    /// The document's <title> (index.html's, in English).
    pub doc_title: &'static str,
    pub tagline: &'static str,
    pub skip_to_results: &'static str,
    // toolbar
    pub language: &'static str,
    pub theme: &'static str,
    pub theme_auto: &'static str,
    pub theme_light: &'static str,
    pub theme_dark: &'static str,
    pub units: &'static str,
    // sections
    pub sec_model: &'static str,
    pub sec_method: &'static str,
    pub sec_training: &'static str,
    pub sec_parallel: &'static str,
    pub sec_job: &'static str,
    pub sec_run: &'static str,
    pub timeline_title: &'static str,
    pub must_have: &'static str,
    pub sec_method_details: &'static str,
    pub advanced: fn(changed: usize) -> String,
    pub expert_format: &'static str,
    pub sec_results: &'static str,
    // model picker
    pub model_source: &'static str,
    pub mode_preset: &'static str,
    pub mode_custom: &'static str,
    pub mode_config: &'static str,
    pub search_presets: &'static str,
    /// The picker's group of image and video diffusion models (each opens its own page).
    pub dit_group: &'static str,
    pub search_placeholder: &'static str,
    pub preset: &'static str,
    pub no_match: &'static str,
    pub params: &'static str,
    pub arch_fields: &'static str,
    pub arch_inferred_hint: &'static str,
    pub layers: &'static str,
    pub hidden: &'static str,
    pub heads: &'static str,
    pub kv_heads: &'static str,
    pub ffn: &'static str,
    pub vocab: &'static str,
    pub config_paste: &'static str,
    pub config_drop_hint: &'static str,
    pub config_file: &'static str,
    pub config_problem: &'static str,
    pub config_read: fn(layers: u64, hidden: u64, params: &str) -> String,
    pub hub_label: &'static str,
    pub hub_fetch: &'static str,
    pub hub_hint: &'static str,
    pub hub_failed: fn(repo: &str, why: &str) -> String,
    pub config_reader_failed: fn(e: &str) -> String,
    // method
    pub method: &'static str,
    pub rank: &'static str,
    pub targets: &'static str,
    pub quant: &'static str,
    pub double_quant: &'static str,
    pub bottleneck: &'static str,
    pub virtual_tokens: &'static str,
    pub train_layers: &'static str,
    // training
    pub precision: &'static str,
    pub optimizer: &'static str,
    pub batch: &'static str,
    pub seq: &'static str,
    /// Whisper's `seq`: the labels of one clip.
    pub labels: &'static str,
    pub ga: &'static str,
    pub ckpt: &'static str,
    pub attn: &'static str,
    pub loss: &'static str,
    pub packing: &'static str,
    pub compile: &'static str,
    pub act_offload: &'static str,
    /// Switch: `torch.autocast` over a 16-bit model (the Trainer's bf16=True).
    pub autocast: &'static str,
    /// Checkbox: `zero_grad(set_to_none=True)`, gradients freed after each step.
    pub set_to_none: &'static str,
    pub optim_in_bwd: &'static str,
    pub galore_rank: &'static str,
    pub ckpt_every: &'static str,
    pub u_blocks: &'static str,
    pub framework: &'static str,
    pub profile_default: &'static str,
    // parallelism
    pub gpus: &'static str,
    pub shard: &'static str,
    pub offload: &'static str,
    /// Choice: where a sharded checkpoint gathers its full state dict (`state_dict`).
    pub state_dict: &'static str,
    /// A multimodal model's images per sample, their size and what its vision tower does.
    pub images: &'static str,
    pub image_res: &'static str,
    pub tower: &'static str,
    pub tower_quant: &'static str,
    pub u_images: &'static str,
    pub target_gpu: &'static str,
    pub gpu_none: &'static str,
    pub nodes: &'static str,
    pub tp: &'static str,
    pub sp: &'static str,
    pub pp: &'static str,
    pub cp: &'static str,
    pub compute: &'static str,
    pub startup: &'static str,
    pub storage_days: &'static str,
    pub idle: &'static str,
    pub download: &'static str,
    // job
    pub tokens: &'static str,
    pub dataset_images: &'static str,
    pub dataset_clips: &'static str,
    pub epochs: &'static str,
    pub runs: &'static str,
    pub pricing: &'static str,
    pub currency: &'static str,
    pub ckpt_interval: &'static str,
    // units
    pub u_billion: &'static str,
    pub u_tokens: &'static str,
    pub u_seqs: &'static str,
    pub u_clips: &'static str,
    pub u_steps: &'static str,
    pub u_gpus: &'static str,
    pub u_min: &'static str,
    pub u_days: &'static str,
    pub u_gb: &'static str,
    pub u_layers: &'static str,
    pub u_count: &'static str,
    pub u_prob: &'static str,
    pub lora_dropout: &'static str,
    pub u_hours: &'static str,
    pub u_usd: &'static str,
    // input feedback
    pub clamped: fn(typed: &str, to: &str, lo: &str, hi: &str) -> String,
    pub not_a_number: fn(typed: &str) -> String,
    // memory
    pub mem_title: &'static str,
    pub mem_total: &'static str,
    pub mem_breakdown: &'static str,
    pub weights: &'static str,
    pub gradients: &'static str,
    pub optimizer_states: &'static str,
    pub activations: &'static str,
    pub logits: &'static str,
    pub overhead: &'static str,
    pub allocated: &'static str,
    pub allocated_hint: &'static str,
    pub reserved: &'static str,
    pub reserved_hint: &'static str,
    pub device: &'static str,
    pub device_hint: &'static str,
    pub host_ram: &'static str,
    pub model_params: &'static str,
    pub trainable_params: &'static str,
    /// The two above inside a sentence (no Unicode case tables in the wasm for them).
    pub model_params_lc: &'static str,
    pub trainable_params_lc: &'static str,
    pub active_params_lc: &'static str,
    pub frozen_vision_lc: &'static str,
    pub inferred_arch: &'static str,
    pub explain: &'static str,
    pub formula: &'static str,
    pub assumptions: &'static str,
    pub no_explanation: &'static str,
    // GPU table
    pub gpu_title: &'static str,
    pub col_gpu: &'static str,
    pub col_vram: &'static str,
    pub col_status: &'static str,
    pub col_headroom: &'static str,
    pub col_max_batch: &'static str,
    pub col_max_seq: &'static str,
    pub fits: &'static str,
    /// Inside the model's error band: may or may not fit.
    pub tight: &'static str,
    pub needs_gpus: fn(n: u32) -> String,
    pub no_fit: &'static str,
    pub not_computed: &'static str,
    pub use_gpu: fn(name: &str) -> String,
    /// The chosen GPU's verdict: name, usable memory, headroom, and the band of what measured
    /// runs of this kind needed.
    pub verdict_on: fn(gpu: &str, vram: &str, headroom: &str, low: &str, high: &str) -> String,
    pub summary_title: &'static str,
    pub per_gpu: &'static str,
    pub choose_gpu_hint: &'static str,
    pub summary_time: fn(hours: &str, gpus: u32, gpu: &str) -> String,
    pub summary_cost: fn(usd: &str, gpus: u32, gpu: &str, provider: &str) -> String,
    pub sec_your_gpu: &'static str,
    pub fixes_title: &'static str,
    pub plan_title: &'static str,
    /// The embedded widget's link to the whole calculator with the same settings.
    pub open_full: &'static str,
    // cost
    pub cost_title: &'static str,
    /// The sections the lazily loaded module writes (components/lazy.rs): the cost ranking and
    /// the memory curve while the module loads, and the sentence before why it could not.
    pub cost_loading: &'static str,
    pub plot_loading: &'static str,
    pub gpus_loading: &'static str,
    pub section_load_failed: fn(e: &str) -> String,
    pub col_count: &'static str,
    pub col_price: &'static str,
    pub col_time: &'static str,
    pub cheapest: &'static str,
    pub time_summary: fn(hours: &str, tokens_per_s: &str, gpus: u32, gpu: &str) -> String,
    /// The run's parts: steps, start-up, saves, and the model-FLOPs utilisation.
    pub time_parts: fn(steps: &str, startup_min: &str, saves: u32, save_min: &str, mfu: &str, dtype: &str) -> String,
    // plots
    pub plot_mem_seq: &'static str,
    pub plot_mem_seq_desc: &'static str,
    pub plot_mem_batch: &'static str,
    pub plot_mem_batch_desc: &'static str,
    /// Label of the memory plot's choice of horizontal axis.
    pub plot_against: &'static str,
    // notices
    pub warnings: &'static str,
    pub bad_link: &'static str,
    pub dismiss: &'static str,
    pub cannot_compute: &'static str,
}

/// Display label of a query-format value (`qlora`, `none`, `on-demand`, ...). Technical names
/// that read the same in every language (fp32, adamw, zero3) are shown as spelled.
pub fn value_label(lang: Lang, v: &str) -> &str {
    match (lang.built(), v) {
        (Lang::En, "full") => "full",
        (Lang::En, "freeze") => "freeze (train last layers)",
        (Lang::En, "lora") => "LoRA",
        (Lang::En, "qlora") => "QLoRA",
        (Lang::En, "dora") => "DoRA",
        (Lang::En, "adapter") => "bottleneck adapter",
        (Lang::En, "prefix") => "prefix tuning",
        (Lang::En, "prompt") => "prompt tuning",
        (Lang::En, "none") => "none",
        (Lang::En, "selective") => "selective",
        (Lang::En, "standard") => "standard",
        (Lang::En, "chunked") => "chunked",
        (Lang::En, "optimizer") => "optimizer states",
        (Lang::En, "all") => "all (params + optimizer)",
        (Lang::En, "on-demand") => "on-demand",
        (Lang::En, "spot") => "spot",
        (Lang::En, "both") => "both",
        (Lang::En, "seq") => "sequence length",
        (Lang::En, "on") => "on",
        (Lang::En, "off") => "off",
        (Lang::En, "batch") => "micro-batch",
        (Lang::En, "op") => "per-op (torchtitan)",
        (Lang::En, "fused-linear") => "fused linear (Liger, Cut CE)",
        (Lang::En, "mxfp4") => "MXFP4, as stored",
        (Lang::En, "galore-adamw") => "GaLore AdamW",
        (Lang::En, "frozen") => "frozen",
        (_, "usd") => "USD ($)",
        (_, "eur") => "EUR (€)",
        (_, "rub") => "RUB (₽)",
        (Lang::Ru, "full") => "полное",
        (Lang::Ru, "frozen") => "заморожен",
        (Lang::Ru, "freeze") => "заморозка (обучаются последние слои)",
        (Lang::Ru, "lora") => "LoRA",
        (Lang::Ru, "qlora") => "QLoRA",
        (Lang::Ru, "dora") => "DoRA",
        (Lang::Ru, "adapter") => "адаптер-бутылочное горлышко",
        (Lang::Ru, "prefix") => "prefix tuning",
        (Lang::Ru, "prompt") => "prompt tuning",
        (Lang::Ru, "none") => "нет",
        (Lang::Ru, "selective") => "выборочный",
        (Lang::Ru, "standard") => "стандартный",
        (Lang::Ru, "chunked") => "по частям",
        (Lang::Ru, "optimizer") => "состояния оптимизатора",
        (Lang::Ru, "all") => "всё (веса + оптимизатор)",
        (Lang::Ru, "on-demand") => "по требованию",
        (Lang::Ru, "spot") => "spot",
        (Lang::Ru, "both") => "оба",
        (Lang::Ru, "seq") => "длина последовательности",
        (Lang::Ru, "on") => "вкл.",
        (Lang::Ru, "off") => "выкл.",
        (Lang::Ru, "batch") => "микробатч",
        (Lang::Ru, "op") => "по операциям (torchtitan)",
        (Lang::Ru, "fused-linear") => "слитый с выходным слоем (Liger, Cut CE)",
        (Lang::Ru, "mxfp4") => "MXFP4, как в чекпойнте",
        (Lang::Ru, "galore-adamw") => "GaLore AdamW",
        (Lang::Ru, "per-second") => "посекундная оплата",
        (Lang::Ru, "per-minute") => "поминутная оплата",
        (Lang::Ru, "storage") => "хранилище",
        (Lang::Ru, "multi-node") => "несколько узлов",
        (Lang::Ru, "memory") => "память",
        (Lang::Ru, "fit") => "помещается ли",
        (Lang::Ru, "cost") => "стоимость",
        _ => v,
    }
}

/// A verdict's label and badge class; inside the error band is never green.
pub fn verdict_badge(s: &Strings, v: tunefit_core::report::Verdict) -> (&'static str, &'static str) {
    match v {
        tunefit_core::report::Verdict::Fits => (s.fits, "ok"),
        tunefit_core::report::Verdict::Tight => (s.tight, "warn"),
        tunefit_core::report::Verdict::DoesNotFit => (s.no_fit, "bad"),
    }
}

/// An offer's region, its price's confidence and an exchange rate's source as the dataset
/// spells them, for the offer row and the rate sentence. Place names and region codes read the same in every language; in Russian the
/// dataset's descriptions of a region are said in Russian, without the notes on how the
/// source lists it.
pub fn offer_place(lang: Lang, v: &str) -> &str {
    match (lang.built(), v) {
        (Lang::Ru, "all regions (availability varies)") => "все регионы (наличие разное)",
        (Lang::Ru, "all regions (uniform price; catalog lists every shape everywhere)") => "все регионы (цена одна)",
        (Lang::Ru, "all DCs (same price)") => "все ЦОД (цена одна)",
        (Lang::Ru, "it-fr2 (some rows blank region)") => "it-fr2 (регион указан не везде)",
        (Lang::Ru, "(not stated)") => "(не указан)",
        (Lang::Ru, "(various)") => "(разные)",
        (Lang::Ru, "default") => "по умолчанию",
        (Lang::Ru, "Bank of Russia") => "Банк России",
        (Lang::Ru, "high") => "надёжность высокая",
        (Lang::Ru, "medium") => "надёжность средняя",
        (Lang::Ru, "low") => "надёжность низкая",
        _ => v,
    }
}

/// Label of a memory term as the core names it in `Explanation::term`.
pub fn term_label(s: &Strings, term: &str) -> String {
    match term {
        "weights" => s.weights.into(),
        "gradients" => s.gradients.into(),
        "optimizer" => s.optimizer_states.into(),
        "activations" => s.activations.into(),
        "logits" => s.logits.into(),
        "overhead" => s.overhead.into(),
        "allocated" => s.allocated.into(),
        "reserved" => s.reserved.into(),
        "device" => s.device.into(),
        "host_ram" => s.host_ram.into(),
        other => other.replace('_', " "),
    }
}

pub static EN: Strings = Strings {
    title: "tunefit",
    doc_title: "tunefit — fine-tuning GPU calculator",
    tagline: "Fine-tuning GPU calculator: memory, fit, time and cost, computed in your browser.",
    skip_to_results: "Skip to results",
    language: "Language",
    theme: "Theme",
    theme_auto: "system",
    theme_light: "light",
    theme_dark: "dark",
    units: "Memory units",
    sec_model: "Model",
    sec_method: "Method",
    sec_training: "Training",
    sec_parallel: "GPUs and sharding",
    sec_job: "Job",
    sec_run: "Batch and job size",
    timeline_title: "Memory through one step",
    must_have: "Providers must have",
    sec_method_details: "Method details",
    advanced: |n| {
        match n { 0 => "Advanced: framework, precision, kernels, checkpointing, parallelism, cost (all at defaults)".into(), 1 => "Advanced: framework, precision, kernels, checkpointing, parallelism, cost (1 setting differs from the default)".into(), n => format!("Advanced: framework, precision, kernels, checkpointing, parallelism, cost ({n} settings differ from the defaults)") }
    },
    expert_format: "MoE expert weights",
    sec_results: "Results",
    model_source: "Model source",
    mode_preset: "preset",
    mode_custom: "custom size",
    mode_config: "config.json",
    search_presets: "Search presets",
    dit_group: "Image & video (diffusion): opens their page",
    search_placeholder: "e.g. llama 8b",
    preset: "Preset model",
    no_match: "No preset matches the search.",
    params: "Parameters",
    arch_fields: "Architecture (optional)",
    arch_inferred_hint: "Empty fields are inferred from the parameter count.",
    layers: "Layers",
    hidden: "Hidden size",
    heads: "Attention heads",
    kv_heads: "KV heads",
    ffn: "FFN size",
    vocab: "Vocabulary",
    config_paste: "Paste a config.json",
    config_drop_hint: "Paste the text, or drop the file here.",
    config_file: "Or choose a file",
    config_problem: "The config.json was not applied:",
    config_read: |l, h, p| format!("Read: {l} layers, hidden size {h}, {p} parameters."),
    hub_label: "Or a Hugging Face model id",
    hub_fetch: "Fetch config.json",
    hub_hint: "Only this button contacts huggingface.co, for that one file; nothing else leaves your browser.",
    hub_failed: |r, why| {
        match why {
        "bad-id" => format!("'{r}' is not a model id: write owner/name, as in Qwen/Qwen3-8B."),
        "http-401" | "http-403" => format!("{r} is gated or private: accept its licence on huggingface.co, download config.json and paste or drop it here."),
        "http-404" => format!("{r} has no config.json on huggingface.co: check the id."),
        w if w.starts_with("http-") => format!("huggingface.co answered {} for {r}; paste its config.json instead.", &w[5..]),
        _ => format!("huggingface.co could not be reached (offline?): paste or drop {r}'s config.json instead."),
    }
    },
    config_reader_failed: |e| format!("The config reader could not be loaded ({e}); edit the text to try again."),
    method: "Method",
    rank: "LoRA rank",
    targets: "Target modules",
    quant: "Base weight quantization",
    double_quant: "Double quantization",
    bottleneck: "Bottleneck size",
    virtual_tokens: "Virtual tokens",
    train_layers: "Trainable layers",
    precision: "Precision",
    optimizer: "Optimizer",
    batch: "Micro-batch",
    seq: "Sequence length",
    labels: "Label tokens per clip",
    ga: "Gradient accumulation",
    ckpt: "Activation checkpointing",
    attn: "Attention kernel",
    loss: "Loss",
    packing: "Sequence packing",
    compile: "torch.compile",
    act_offload: "Activation offloading to CPU",
    autocast: "Autocast over the 16-bit model (Trainer bf16/fp16 flag)",
    set_to_none: "Free gradients after each step (zero_grad set_to_none)",
    optim_in_bwd: "Optimizer step in backward, one gradient at a time (torchtune optimizer_in_bwd)",
    galore_rank: "GaLore projection rank",
    ckpt_every: "Checkpoint every n-th block",
    u_blocks: "blocks",
    framework: "Framework",
    profile_default: "framework default",
    gpus: "GPUs",
    shard: "Sharding",
    offload: "CPU offload",
    state_dict: "Full state dict at save (host or GPU)",
    images: "Images per sample",
    image_res: "Image size (px, W or WxH; empty: the model's)",
    tower: "Vision tower",
    tower_quant: "Vision tower stored 4-bit (QLoRA)",
    u_images: "images",
    target_gpu: "Target GPU",
    gpu_none: "none (see the table)",
    tokens: "Dataset tokens",
    dataset_images: "Dataset images",
    dataset_clips: "Dataset clips (30 s)",
    epochs: "Epochs",
    runs: "Runs",
    pricing: "Pricing",
    currency: "Currency",
    ckpt_interval: "Checkpoint interval",
    nodes: "Nodes",
    tp: "Tensor parallel",
    sp: "Sequence parallelism (with tensor parallel)",
    pp: "Pipeline stages",
    cp: "Context parallel",
    compute: "Matmul format",
    startup: "Start-up (provisioning, image pull)",
    storage_days: "Storage kept for (the project's days)",
    idle: "Idle after each run (instance kept up, billed)",
    download: "Downloaded per run besides the result (egress)",
    u_billion: "B",
    u_tokens: "tokens",
    u_seqs: "sequences",
    u_clips: "clips",
    u_steps: "steps",
    u_gpus: "GPUs",
    u_min: "min",
    u_days: "days",
    u_gb: "GB",
    u_layers: "layers",
    u_count: "count",
    u_prob: "probability",
    lora_dropout: "LoRA dropout",
    u_hours: "h",
    u_usd: "USD",
    clamped: |t, to, lo, hi| format!("{t} is outside {lo}–{hi}; set to {to}."),
    not_a_number: |t| format!("“{t}” is not a number; the value was kept."),
    mem_title: "Per-GPU memory",
    mem_total: "Device memory per GPU (nvidia-smi)",
    mem_breakdown: "Where the memory goes",
    weights: "Weights",
    gradients: "Gradients",
    optimizer_states: "Optimizer states",
    activations: "Activations",
    logits: "Logits",
    overhead: "Overhead",
    allocated: "Allocated (peak)",
    allocated_hint: "torch.cuda.max_memory_allocated",
    reserved: "Reserved (peak)",
    reserved_hint: "torch.cuda.max_memory_reserved",
    device: "Device",
    device_hint: "nvidia-smi: reserved + CUDA context",
    host_ram: "Host RAM per node",
    model_params: "Parameters",
    trainable_params: "Trainable",
    model_params_lc: "parameters",
    trainable_params_lc: "trainable",
    active_params_lc: "active per token",
    frozen_vision_lc: "in the frozen vision tower",
    inferred_arch: "architecture inferred from the size",
    explain: "How is this computed?",
    formula: "Formula",
    assumptions: "Assumptions",
    no_explanation: "No formula is recorded for this figure.",
    gpu_title: "Which GPUs fit",
    col_gpu: "GPU",
    col_vram: "Memory",
    col_status: "Fit",
    col_headroom: "Headroom",
    col_max_batch: "Largest batch",
    col_max_seq: "Longest sequence",
    fits: "fits",
    tight: "tight",
    needs_gpus: |n| format!("needs {n} GPUs"),
    no_fit: "does not fit",
    not_computed: "—",
    use_gpu: |n| format!("Use {n} as the target GPU"),
    verdict_on: |g, v, h, lo, hi| format!("on {g} ({v}): headroom {h}; measured runs of this kind needed {lo} to {hi}"),
    summary_title: "Summary",
    per_gpu: "per GPU (nvidia-smi)",
    choose_gpu_hint: "Choose your GPU to see whether it fits.",
    summary_time: |h, n, g| format!("{h} on {n} × {g}"),
    summary_cost: |c, n, g, p| format!("cheapest {c} on {n} × {g} at {p}"),
    sec_your_gpu: "Your GPU",
    fixes_title: "Changes that make it fit (✓: this change alone); a click applies one:",
    plan_title: "Plan a run · compare with my run",
    open_full: "Open in tunefit ↗",
    cost_title: "Offers ranked by total cost",
    cost_loading: "Ranking the offers…",
    plot_loading: "Drawing the curve…",
    gpus_loading: "Checking every GPU…",
    section_load_failed: |e| {
        format!("This part of the page could not be loaded ({e}); it is asked for again with the next change.")
    },
    col_count: "GPUs",
    col_price: "Price / h",
    col_time: "Time",
    cheapest: "cheapest",
    time_summary: |h, t, n, g| format!("Training time: {h} at {t} tokens/s on {n} × {g}"),
    time_parts: |st, up, n, sv, mfu, dt| {
        format!("steps {st} + start-up {up} min + {n} checkpoint save(s) {sv} min; MFU {mfu} %, {dt} matmuls")
    },
    plot_mem_seq: "Memory against sequence length",
    plot_mem_seq_desc: "Device memory per GPU at each sequence length, with each GPU's memory as a horizontal line.",
    plot_mem_batch: "Memory against micro-batch",
    plot_mem_batch_desc: "Device memory per GPU at each micro-batch size, with each GPU's memory as a horizontal line.",
    plot_against: "Plot against",
    warnings: "Warnings",
    bad_link: "Some settings in the link were not understood; they keep their defaults and the rest applies:",
    dismiss: "Dismiss",
    cannot_compute: "This configuration cannot be computed:",
};

pub static RU: Strings = Strings {
    title: "tunefit",
    doc_title: "tunefit — калькулятор GPU для дообучения",
    tagline: "Калькулятор GPU для дообучения: память, совместимость, время и стоимость — прямо в браузере.",
    skip_to_results: "К результатам",
    language: "Язык",
    theme: "Тема",
    theme_auto: "системная",
    theme_light: "светлая",
    theme_dark: "тёмная",
    units: "Единицы памяти",
    sec_model: "Модель",
    sec_method: "Метод",
    sec_training: "Обучение",
    sec_parallel: "GPU и шардирование",
    sec_job: "Задача",
    sec_run: "Батч и объём задачи",
    timeline_title: "Память на протяжении шага",
    must_have: "У провайдера должно быть",
    sec_method_details: "Детали метода",
    advanced: |n| {
        let head = "Дополнительно: фреймворк, точность, ядра, чекпоинтинг, параллелизм, стоимость";
        let word = plural_ru(n as u64, "настройка", "настройки", "настроек");
        if n == 0 {
            format!("{head} (всё по умолчанию)")
        } else {
            format!("{head} ({n} {word} не по умолчанию)")
        }
    },
    expert_format: "Веса экспертов MoE",
    sec_results: "Результаты",
    model_source: "Источник модели",
    mode_preset: "готовая",
    mode_custom: "свой размер",
    mode_config: "config.json",
    search_presets: "Поиск модели",
    dit_group: "Изображения и видео (диффузия): своя страница",
    search_placeholder: "например, llama 8b",
    preset: "Готовая модель",
    no_match: "Ни одна модель не подходит под поиск.",
    params: "Параметры",
    arch_fields: "Архитектура (необязательно)",
    arch_inferred_hint: "Пустые поля выводятся из числа параметров.",
    layers: "Слои",
    hidden: "Скрытый размер",
    heads: "Головы внимания",
    kv_heads: "Головы KV",
    ffn: "Размер FFN",
    vocab: "Словарь",
    config_paste: "Вставьте config.json",
    config_drop_hint: "Вставьте текст или перетащите файл сюда.",
    config_file: "Или выберите файл",
    config_problem: "config.json не применён:",
    config_read: |l, h, p| {
        format!("Прочитано: {l} {}, скрытый размер {h}, параметров: {p}.", plural_ru(l, "слой", "слоя", "слоёв"))
    },
    hub_label: "Или id модели на Hugging Face",
    hub_fetch: "Загрузить config.json",
    hub_hint: "Только эта кнопка обращается к huggingface.co, за одним этим файлом; больше ничего не покидает браузер.",
    hub_failed: |r, why| {
        match why {
        "bad-id" => format!("«{r}» — не id модели: пишите владелец/имя, например Qwen/Qwen3-8B."),
        "http-401" | "http-403" => format!("{r} закрыт или требует принять лицензию на huggingface.co: скачайте config.json и вставьте или перетащите его сюда."),
        "http-404" => format!("У {r} нет config.json на huggingface.co: проверьте id."),
        w if w.starts_with("http-") => format!("huggingface.co ответил {} для {r}; вставьте его config.json вручную.", &w[5..]),
        _ => format!("huggingface.co недоступен (нет сети?): вставьте или перетащите config.json модели {r}."),
    }
    },
    config_reader_failed: |e| {
        format!("Не удалось загрузить модуль чтения конфигов ({e}); измените текст, чтобы повторить.")
    },
    method: "Метод",
    rank: "Ранг LoRA",
    targets: "Целевые модули",
    quant: "Квантование базовых весов",
    double_quant: "Двойное квантование",
    bottleneck: "Размер бутылочного горлышка",
    virtual_tokens: "Виртуальные токены",
    train_layers: "Обучаемые слои",
    precision: "Точность",
    optimizer: "Оптимизатор",
    batch: "Микробатч",
    seq: "Длина последовательности",
    labels: "Токенов транскрипта на запись",
    ga: "Накопление градиента",
    ckpt: "Чекпойнтинг активаций",
    attn: "Ядро внимания",
    loss: "Функция потерь",
    packing: "Упаковка последовательностей (packing)",
    compile: "torch.compile",
    act_offload: "Выгрузка активаций в ОЗУ",
    autocast: "Autocast поверх 16-битной модели (флаг bf16/fp16 в Trainer)",
    set_to_none: "Освобождать градиенты после шага (zero_grad set_to_none)",
    optim_in_bwd: "Шаг оптимизатора в обратном проходе, по одному градиенту (optimizer_in_bwd в torchtune)",
    galore_rank: "Ранг проекции GaLore",
    ckpt_every: "Чекпоинтить каждый n-й блок",
    u_blocks: "блоков",
    framework: "Фреймворк",
    profile_default: "по умолчанию фреймворка",
    gpus: "GPU",
    shard: "Шардирование",
    offload: "Выгрузка на CPU",
    state_dict: "Полный state dict при сохранении (хост или GPU)",
    images: "Изображений в примере",
    image_res: "Размер изображения (px, W или WxH; пусто: как у модели)",
    tower: "Энкодер изображений",
    tower_quant: "Энкодер изображений в 4 битах (QLoRA)",
    u_images: "изобр.",
    target_gpu: "Целевой GPU",
    gpu_none: "нет (см. таблицу)",
    tokens: "Токенов в датасете",
    dataset_images: "Изображений в датасете",
    dataset_clips: "Записей в датасете (по 30 с)",
    epochs: "Эпохи",
    runs: "Запуски",
    pricing: "Цены",
    currency: "Валюта",
    ckpt_interval: "Интервал чекпойнтов",
    nodes: "Узлы",
    tp: "Тензорный параллелизм",
    sp: "Параллелизм по последовательности (с тензорным)",
    pp: "Стадии конвейера",
    cp: "Контекстный параллелизм",
    compute: "Формат матричных умножений",
    startup: "Запуск (выделение машины, загрузка образа)",
    storage_days: "Хранилище держится (дней проекта)",
    idle: "Простой после каждого запуска (машина не остановлена, оплачивается)",
    download: "Скачивается за запуск кроме результата (исходящий трафик)",
    u_billion: "млрд",
    u_tokens: "токенов",
    u_seqs: "последовательностей",
    u_clips: "записей",
    u_steps: "шагов",
    u_gpus: "GPU",
    u_min: "мин",
    u_days: "дн.",
    u_gb: "ГБ",
    u_layers: "слоёв",
    u_count: "шт.",
    u_prob: "вероятность",
    lora_dropout: "Dropout в LoRA",
    u_hours: "ч",
    u_usd: "USD",
    clamped: |t, to, lo, hi| format!("{t} вне диапазона {lo}–{hi}; установлено {to}."),
    not_a_number: |t| format!("«{t}» — не число; значение не изменено."),
    mem_title: "Память на GPU",
    mem_total: "Память устройства на GPU (nvidia-smi)",
    mem_breakdown: "Из чего складывается память",
    weights: "Веса",
    gradients: "Градиенты",
    optimizer_states: "Состояния оптимизатора",
    activations: "Активации",
    logits: "Логиты",
    overhead: "Накладные расходы",
    allocated: "Выделено (пик)",
    allocated_hint: "torch.cuda.max_memory_allocated",
    reserved: "Зарезервировано (пик)",
    reserved_hint: "torch.cuda.max_memory_reserved",
    device: "Устройство",
    device_hint: "nvidia-smi: резерв + контекст CUDA",
    host_ram: "ОЗУ хоста на узел",
    model_params: "Параметры",
    trainable_params: "Обучаемые",
    model_params_lc: "параметров",
    trainable_params_lc: "обучаемых",
    active_params_lc: "активны на токен",
    frozen_vision_lc: "в замороженном энкодере изображений",
    inferred_arch: "архитектура выведена из размера",
    explain: "Как это считается?",
    formula: "Формула",
    assumptions: "Допущения",
    no_explanation: "Для этой величины формула не записана.",
    gpu_title: "Какие GPU подходят",
    col_gpu: "GPU",
    col_vram: "Память",
    col_status: "Помещается",
    col_headroom: "Запас",
    col_max_batch: "Макс. батч",
    col_max_seq: "Макс. длина",
    fits: "помещается",
    tight: "на грани",
    needs_gpus: |n| format!("нужно GPU: {n}"),
    no_fit: "не помещается",
    not_computed: "—",
    use_gpu: |n| format!("Выбрать {n} целевым GPU"),
    verdict_on: |g, v, h, lo, hi| {
        format!("на {g} ({v}): запас {h}; измеренным запускам такого рода требовалось от {lo} до {hi}")
    },
    summary_title: "Итог",
    per_gpu: "на GPU (nvidia-smi)",
    choose_gpu_hint: "Выберите свой GPU, чтобы узнать, поместится ли.",
    summary_time: |h, n, g| format!("{h} на {n} × {g}"),
    summary_cost: |c, n, g, p| format!("дешевле всего {c}: {n} × {g} у {p}"),
    sec_your_gpu: "Ваш GPU",
    fixes_title: "Изменения, с которыми поместится (✓ — хватит одного этого); щелчок применяет:",
    plan_title: "План запуска · сравнение с моим запуском",
    open_full: "Открыть в tunefit ↗",
    cost_title: "Предложения по общей стоимости",
    cost_loading: "Предложения ранжируются…",
    plot_loading: "Кривая строится…",
    gpus_loading: "Проверяем каждый GPU…",
    section_load_failed: |e| {
        format!("Эту часть страницы не удалось загрузить ({e}); она будет запрошена снова при следующем изменении.")
    },
    col_count: "GPU",
    col_price: "Цена / ч",
    col_time: "Время",
    cheapest: "дешевле всех",
    time_summary: |h, t, n, g| format!("Время обучения: {h} при {t} токенов/с на {n} × {g}"),
    time_parts: |st, up, n, sv, mfu, dt| {
        format!("шаги {st} + запуск {up} мин + сохранение чекпойнтов ({n}) {sv} мин; MFU {mfu} %, матричные умножения в {dt}")
    },
    plot_mem_seq: "Память в зависимости от длины последовательности",
    plot_mem_seq_desc: "Память устройства на GPU при каждой длине; горизонтальные линии — память каждого GPU.",
    plot_mem_batch: "Память в зависимости от микробатча",
    plot_mem_batch_desc:
        "Память устройства на GPU при каждом размере микробатча; горизонтальные линии — память каждого GPU.",
    plot_against: "По горизонтали",
    warnings: "Предупреждения",
    bad_link: "Часть настроек в ссылке не распознана; они оставлены по умолчанию, остальное применено:",
    dismiss: "Закрыть",
    cannot_compute: "Эту конфигурацию нельзя посчитать:",
};

// ---- Sharing, embed, own prices and config export ----
// A table of its own so these strings can grow without touching `Strings`; the same rule
// holds: a field added here fails to compile until both languages fill it.

/// Strings of the share bar, the embed widget, the own-prices editor and the config export.
pub struct ShareStrings {
    pub share: &'static str,
    pub copy_markdown: &'static str,
    pub download_json: &'static str,
    pub embed: &'static str,
    pub include_prices: &'static str,
    pub copied: &'static str,
    pub copy_failed: &'static str,
    pub downloaded: &'static str,
    pub embed_hint: &'static str,
    pub embed_view: &'static str,
    pub embed_view_all: &'static str,
    pub embed_view_full: &'static str,
    pub copy_snippet: &'static str,
    // own prices
    pub prices_title: &'static str,
    pub prices_hint: &'static str,
    pub prices_apply: &'static str,
    pub prices_clear: &'static str,
    pub prices_import: &'static str,
    pub prices_export_csv: &'static str,
    pub prices_export_json: &'static str,
    pub prices_saved: fn(n: usize) -> String,
    pub prices_error: fn(e: &str) -> String,
    /// Why an imported file gave no text.
    pub prices_unreadable: &'static str,
    pub prices_corrupt: fn(e: &str) -> String,
    pub prices_not_saved: &'static str,
    pub link_prices: fn(n: usize) -> String,
    pub link_prices_bad: fn(e: &str) -> String,
    pub use_link_prices: &'static str,
    pub keep_mine: &'static str,
    // config export
    pub export_title: &'static str,
    /// While the exporter's own wasm loads (the first time the panel opens).
    pub export_loading: &'static str,
    pub export_load_failed: fn(e: &str) -> String,
    /// What choosing the framework changes, in one line (docs/frameworks.md's table).
    pub framework_desc: fn(fw: tunefit_core::query::Framework) -> &'static str,
}

impl Lang {
    pub fn sh(self) -> &'static ShareStrings {
        match self.built() {
            Lang::En => &SHARE_EN,
            Lang::Ru => &SHARE_RU,
        }
    }
}

pub static SHARE_EN: ShareStrings = ShareStrings {
    share: "Share link",
    copy_markdown: "Copy as Markdown",
    download_json: "Download JSON",
    embed: "Embed",
    include_prices: "Include my prices in the link",
    copied: "Copied to the clipboard.",
    copy_failed: "The clipboard is not available here; select the text below and copy it.",
    downloaded: "Downloaded.",
    embed_hint: "Paste into a page: the iframe shows this configuration, and the script resizes it to its content.",
    embed_view: "Show",
    embed_view_all: "compact: the verdict and the memory",
    embed_view_full: "everything: memory, fit and cost",
    copy_snippet: "Copy snippet",
    prices_title: "Your prices",
    prices_hint: "CSV, one price a line: kind=override replaces a listed offer's price, kind=custom adds your own offer. USD per instance-hour. Kept in this browser only.",
    prices_apply: "Save and apply",
    prices_clear: "Clear",
    prices_import: "Import CSV or JSON",
    prices_export_csv: "Export CSV",
    prices_export_json: "Export JSON",
    prices_saved: |n| format!("Saved: {n} entries applied."),
    prices_error: |e| format!("Not applied: {e}"),
    prices_unreadable: "unreadable file",
    prices_corrupt: |e| format!("Your saved prices could not be read and were ignored ({e})."),
    prices_not_saved: "Applied, but this browser does not allow saving them.",
    link_prices: |n| format!("This link carries the sender's prices ({n} entries). Use them instead of yours?"),
    link_prices_bad: |e| format!("The prices in this link could not be read and were ignored ({e})."),
    use_link_prices: "Use the link's prices",
    keep_mine: "Keep mine",
    export_title: "Copy config",
    export_loading: "Loading the config exporter…",
    export_load_failed: |e| format!("The config exporter could not be loaded ({e}). Close and reopen this panel to try again."),
    framework_desc: |fw| {
        use tunefit_core::query::Framework as F;
        match fw {
            F::Hf => "Transformers + PEFT: fp32 adapters, fp32 loss upcast, no checkpointing by default (full for QLoRA).",
            F::Torchtune => "bf16 adapters, chunked fp32 loss, full checkpointing, torchao NF4, k/v expanded to all heads.",
            F::Litgpt => "bf16 adapters, logits in model dtype, no checkpointing, foreach AdamW temporary, LoRA dropout 0.05.",
            F::Unsloth => "bf16 adapters, fused norm and loss, checkpointing with inputs offloaded to host memory.",
            F::Axolotl => "As Transformers, with flash attention, full checkpointing and sample packing on by default.",
            F::LlamaFactory => "As Transformers, with full checkpointing by default.",
        }
    },
};

pub static SHARE_RU: ShareStrings = ShareStrings {
    share: "Ссылка",
    copy_markdown: "Копировать как Markdown",
    download_json: "Скачать JSON",
    embed: "Встроить",
    include_prices: "Добавить мои цены в ссылку",
    copied: "Скопировано в буфер обмена.",
    copy_failed: "Буфер обмена здесь недоступен; выделите текст ниже и скопируйте.",
    downloaded: "Скачано.",
    embed_hint: "Вставьте в страницу: iframe покажет эту конфигурацию, а скрипт подгонит его высоту под содержимое.",
    embed_view: "Показать",
    embed_view_all: "компактно: вердикт и память",
    embed_view_full: "всё: память, помещение и стоимость",
    copy_snippet: "Копировать код",
    prices_title: "Ваши цены",
    prices_hint: "CSV, по цене в строке: kind=override заменяет цену предложения из списка, kind=custom добавляет ваше. USD за час инстанса. Хранятся только в этом браузере.",
    prices_apply: "Сохранить и применить",
    prices_clear: "Очистить",
    prices_import: "Импорт CSV или JSON",
    prices_export_csv: "Экспорт CSV",
    prices_export_json: "Экспорт JSON",
    prices_saved: |n| format!("Сохранено: записей применено — {n}."),
    prices_error: |e| format!("Не применено: {e}"),
    prices_unreadable: "файл не удалось прочитать",
    prices_corrupt: |e| format!("Сохранённые цены не удалось прочитать, они пропущены ({e})."),
    prices_not_saved: "Применено, но этот браузер не разрешает их сохранить.",
    link_prices: |n| format!("В ссылке есть цены отправителя (записей: {n}). Использовать их вместо ваших?"),
    link_prices_bad: |e| format!("Цены в ссылке не удалось прочитать, они пропущены ({e})."),
    use_link_prices: "Взять цены из ссылки",
    keep_mine: "Оставить мои",
    export_title: "Конфиг для фреймворка",
    export_loading: "Загружается экспорт конфигов…",
    export_load_failed: |e| format!("Не удалось загрузить экспорт конфигов ({e}). Закройте и снова откройте эту панель, чтобы повторить."),
    framework_desc: |fw| {
        use tunefit_core::query::Framework as F;
        match fw {
            F::Hf => "Transformers + PEFT: адаптеры в fp32, потери с приведением к fp32, без чекпоинтинга по умолчанию (полный для QLoRA).",
            F::Torchtune => "Адаптеры в bf16, потери по частям в fp32, полный чекпоинтинг, NF4 из torchao, k/v размножены на все головы.",
            F::Litgpt => "Адаптеры в bf16, логиты в типе модели, без чекпоинтинга, временный буфер foreach AdamW, LoRA dropout 0.05.",
            F::Unsloth => "Адаптеры в bf16, слитые норма и потери, чекпоинтинг с выгрузкой входов в память хоста.",
            F::Axolotl => "Как Transformers, но по умолчанию flash attention, полный чекпоинтинг и упаковка примеров.",
            F::LlamaFactory => "Как Transformers, но по умолчанию полный чекпоинтинг.",
        }
    },
};

// ---- The cost section's ranking ----
// Written by the lazily loaded module (crates/tunefit-export/src/cost_table.rs): a table of its
// own, so that module links these strings and not the whole page's.

/// Strings of the cost table, its recommendation and the cost-against-time scatter.
pub struct CostStrings {
    pub billing_per: fn(unit: &str) -> String,
    pub storage_price: fn(usd: &str) -> String,
    pub egress_price: fn(usd: &str) -> String,
    pub multi_node: &'static str,
    /// Before the rates the cost figures went through ("… 1 USD = 76.04 RUB (Bank of Russia,
    /// 2026-01-23).").
    pub converted: &'static str,
    pub col_gpu: &'static str,
    pub per_gpu_hour: fn(usd: &str) -> String,
    pub stale_price: &'static str,
    pub spot_check: &'static str,
    pub cost_pending: &'static str,
    pub col_provider: &'static str,
    pub col_cost: &'static str,
    pub on_demand: &'static str,
    pub spot: &'static str,
    pub cheapest: &'static str,
    pub fastest: &'static str,
    pub recommendation: &'static str,
    pub show_more: fn(n: usize) -> String,
    pub show_fewer: &'static str,
    pub plot_cost_time: &'static str,
    pub plot_cost_time_desc: &'static str,
    pub axis_time: &'static str,
    pub axis_cost: &'static str,
    pub pareto: &'static str,
}

impl Lang {
    pub fn cost(self) -> &'static CostStrings {
        match self.built() {
            Lang::En => &COST_EN,
            Lang::Ru => &COST_RU,
        }
    }
}

pub static COST_EN: CostStrings = CostStrings {
    billing_per: |u| format!("{u} billing"),
    storage_price: |x| format!("storage {x}/GB-month"),
    egress_price: |x| format!("egress {x}/GB"),
    multi_node: "multi-node",
    converted: "Prices converted at",
    col_gpu: "GPU",
    per_gpu_hour: |u| format!("{u}/GPU-h"),
    stale_price: " · older than 60 days",
    spot_check: "far below on-demand: check",
    cost_pending: "Time and cost appear here once the dataset of offers is loaded.",
    col_provider: "Provider",
    col_cost: "Total cost",
    on_demand: "on-demand",
    spot: "spot",
    cheapest: "cheapest",
    fastest: "fastest",
    recommendation: "Recommendation",
    show_more: |n| format!("Show {n} more offers"),
    show_fewer: "Show fewer offers",
    plot_cost_time: "Cost against time",
    plot_cost_time_desc: "Each offer as a point; the line joins the offers no other beats on both cost and time.",
    axis_time: "time (h)",
    axis_cost: "cost (USD)",
    pareto: "Pareto front",
};

pub static COST_RU: CostStrings = CostStrings {
    billing_per: |u| {
        format!(
            "оплата {}",
            match u {
                "per-second" => "посекундная",
                "per-minute" => "поминутная",
                _ => "почасовая",
            }
        )
    },
    storage_price: |x| format!("хранилище {x}/ГБ в месяц"),
    egress_price: |x| format!("исходящий трафик {x}/ГБ"),
    multi_node: "несколько узлов",
    converted: "Цены пересчитаны по курсу",
    col_gpu: "GPU",
    per_gpu_hour: |u| format!("{u}/GPU·ч"),
    stale_price: " · старше 60 дней",
    spot_check: "намного ниже цены по требованию: проверьте",
    cost_pending: "Время и стоимость появятся здесь, когда загрузится набор предложений.",
    col_provider: "Провайдер",
    col_cost: "Итого",
    on_demand: "по требованию",
    spot: "spot",
    cheapest: "дешевле всех",
    fastest: "быстрее всех",
    recommendation: "Рекомендация",
    show_more: |n| format!("Показать ещё {n} {}", plural_ru(n as u64, "предложение", "предложения", "предложений")),
    show_fewer: "Показать меньше",
    plot_cost_time: "Стоимость и время",
    plot_cost_time_desc:
        "Каждое предложение — точка; линия соединяет предложения, которые никто не обходит и по цене, и по времени.",
    axis_time: "время (ч)",
    axis_cost: "стоимость (USD)",
    pareto: "Фронт Парето",
};

/// Strings of the memory plot's curve (written by the lazy module, memory_plot.rs).
pub struct PlotStrings {
    pub axis_seq: &'static str,
    pub axis_batch: &'static str,
    /// An image encoder's micro-batch.
    pub axis_batch_images: &'static str,
    pub axis_memory: &'static str,
}

impl Lang {
    pub fn plot(self) -> &'static PlotStrings {
        match self.built() {
            Lang::En => &PLOT_EN,
            Lang::Ru => &PLOT_RU,
        }
    }
}

pub static PLOT_EN: PlotStrings = PlotStrings {
    axis_seq: "sequence length (tokens)",
    axis_batch: "micro-batch (sequences)",
    axis_batch_images: "micro-batch (images)",
    axis_memory: "memory per GPU",
};

pub static PLOT_RU: PlotStrings = PlotStrings {
    axis_seq: "длина последовательности (токены)",
    axis_batch: "микробатч (последовательности)",
    axis_batch_images: "микробатч (изображения)",
    axis_memory: "память на GPU",
};
