//! The exporter's notes: one variant per sentence, its figures (framework, key values, names,
//! counts) as fields, rendered in English and Russian from them (the model is `diag::Warning`).
//! Nothing reads a sentence back, so a reworded sentence cannot lose its translation or its
//! figures. The English is what `tunefit export` prints; variants of one code share `code()`.

use super::PLACEHOLDER;
use crate::diag::{Lang, Warning};
use crate::query::{
    Checkpointing, Framework, Method, Offload, Optimizer, OptimizerImpl, Precision, ShardingStrategy, TowerTraining,
};

/// A note of an export, before it is rendered in a language.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// The framework profile's own warning (`framework::unsupported`), repeated by the export.
    Profile(Warning),
    /// A custom or inferred model is named by `PLACEHOLDER`.
    ModelPlaceholder,
    /// Tensor parallelism is not exported.
    Tp { tp: u32, framework: Framework },
    /// Selective or per-op checkpointing becomes whole-block checkpointing.
    CkptSelective { ckpt: Checkpointing, framework: Framework },
    /// Checkpointing every n-th block becomes every block.
    CkptEvery { every: u32, framework: Framework },
    /// The optimizer steps after backward, not inside it.
    OptimInBwd { framework: Framework },
    /// Transformers names no fp8 AdamW; its 8-bit AdamW stands in.
    OptimFp8,
    /// The framework has no GaLore; AdamW stands in.
    OptimGalore { framework: Framework },
    /// torchtune has no fused linear cross-entropy; its chunked loss stands in.
    LossFusedLinear,
    /// The Trainer-based frameworks have no chunked loss; Liger's fused linear one stands in.
    LossChunked { framework: Framework },
    /// Activation offloading has no switch the export can write for the framework.
    ActOffload { framework: Framework },
    /// The framework keeps LoRA adapters in fp32 whatever is asked.
    AdapterDtype { framework: Framework },
    /// Packed samples under SDPA: transformers builds a block-causal mask.
    PackingSdpa { framework: Framework },
    /// The framework's AdamW name cannot say for-loop (hf family) or the implementation at all.
    OptimImpl { optim_impl: OptimizerImpl, framework: Framework },
    /// One fused linear holds several of the chosen projections (`parts`); LoRA adapts all.
    /// `counted`: the estimate counts the whole fused module (q, k and v under the Trainer-based
    /// frameworks, memory/trainable.rs), so only the adapted parts differ from the person's.
    TargetsFused { parts: &'static [&'static str], module: &'static str, counted: bool },
    /// BERT's MLP output name also matches the attention output.
    TargetsBertOutput,
    /// Optimizer-only offload under FSDP is not exported.
    OffloadFsdp,
    /// Offload without sharding is not exported.
    OffloadUnsharded { offload: Offload },
    /// DeepSpeed offloads parameters only under ZeRO-3.
    OffloadParamStage,
    /// PEFT has no bottleneck adapter.
    MethodAdapter { bottleneck: u32 },
    /// fp16-true trains without a loss scaler.
    Fp16True,
    /// torchtune has no recipe for the method.
    TorchtuneMethod { method: Method },
    /// torchtune has no builder for the model (`model`: the preset, `None` for a custom one).
    TorchtuneModel { model: Option<&'static str> },
    /// torchtune has no config of this kind for the model; a sibling config stands in.
    TorchtuneConfigSubstitute {
        model: Option<&'static str>,
        dir: String,
        wanted: String,
        config: String,
        variant: String,
        recipe: String,
    },
    /// torchtune has no config of this kind for the model; Llama 3.1 8B's stands in.
    TorchtuneConfigFallback {
        model: Option<&'static str>,
        kind: &'static str,
        dir: String,
        size: String,
        fallback: String,
    },
    /// torchtune adapts the MLP projections together.
    TorchtuneTargetsMlp,
    /// torchtune's LoRA builders cannot train the embedding.
    TorchtuneTargetsEmbed,
    /// torchtune's Gemma LoRA builders cannot adapt the tied output projection.
    TorchtuneTargetsLmHead,
    /// torchtune's Gemma 1 LoRA builders fix the dropout.
    TorchtuneLoraDropout,
    /// torchtune trains in bf16 or fp32; fp16 becomes bf16.
    TorchtunePrecisionFp16 { precision: Precision },
    /// torchtune has no mixed precision.
    TorchtuneBf16Mixed,
    /// torchtune counts whole epochs.
    TorchtuneEpochs { epochs: f64 },
    /// ZeRO-2 becomes FSDP without resharding after forward.
    TorchtuneZero2,
    /// torchtune's distributed recipes always shard everything.
    TorchtuneSharding { shard: ShardingStrategy },
    /// torchtune offloads all model states or none.
    TorchtuneOffloadOptimizer,
    /// torchtune's single-device recipes offload no model states.
    TorchtuneOffloadSingle { offload: Offload },
    /// torchtune always uses SDPA.
    TorchtuneAttn,
    /// The model is not among litgpt's checkpoints.
    LitgptModel { model: &'static str },
    /// litgpt has no freeze recipe.
    LitgptFreeze,
    /// litgpt has no DoRA.
    LitgptDora,
    /// litgpt has no prefix or prompt tuning; LoRA stands in.
    LitgptMethod { method: Method, rank: u32 },
    /// litgpt refuses quantization with mixed precision; `bf16` picks bf16-true over 16-true.
    LitgptPrecision { precision: Precision, bf16: bool },
    /// litgpt quantizes on one device only.
    LitgptQuantizeMultiGpu,
    /// litgpt adapts the MLP projections together.
    LitgptTargetsMlp,
    /// litgpt's LoRA cannot train the embedding.
    LitgptTargetsEmbed,
    /// Quantized litgpt always uses PagedAdamW.
    LitgptOptimizer { optim: Optimizer },
    /// litgpt shards with FSDP full sharding only.
    LitgptSharding { shard: ShardingStrategy },
    /// litgpt has no offload flag.
    LitgptOffload { offload: Offload },
    /// litgpt checkpoints activations only under FSDP.
    LitgptCkptOneDevice,
    /// litgpt's FSDP always checkpoints.
    LitgptCkptNone,
    /// litgpt has no packing.
    LitgptPacking,
    /// litgpt has no compile flag.
    LitgptCompile,
    /// Axolotl has no adapter for the method.
    AxolotlMethod { method: Method },
    /// LLaMA-Factory rejects pure_bf16 under ZeRO-3.
    LlamaFactoryBf16Zero3,
    /// LLaMA-Factory has no such tuning; LoRA stands in.
    LlamaFactoryMethod { method: Method, rank: u32 },
    /// Unsloth loads 4-bit as NF4 only.
    UnslothFp4,
    /// Unsloth always double-quantizes.
    UnslothDoubleQuant,
    /// Unsloth's kernels do not cover DoRA.
    UnslothDora,
    /// Unsloth has no freeze mode.
    UnslothFreeze,
    /// Unsloth trains LoRA or full weights only; LoRA stands in.
    UnslothMethod { method: Method, rank: u32 },
    /// Unsloth offloads activations, not model states.
    UnslothOffload { offload: Offload },
    /// Unsloth picks its own attention kernels.
    UnslothAttn,
    /// Unsloth trains in 16-bit; fp32 loads anyway.
    UnslothFp32,
    /// `state_dict=device` estimates a save the exported config does not make.
    StateDictDevice { framework: Framework },
    /// Images or a trained vision tower: the exported config trains on text only.
    Vision { images: u32, tower: TowerTraining, framework: Framework },
    /// An image classifier under a PEFT method made for language models: exported unwrapped.
    ImageMethod { method: Method },
}

/// Why an image encoder exports for hf only: the other frameworks train language models.
pub(super) fn image_encoder_only_hf(framework: Framework, lang: Lang) -> String {
    match lang.built() {
        Lang::Ru => format!("{framework} обучает языковые модели: энкодер изображений (ViT, CLIP, SigLIP; SAM) экспортируется для hf, как классификация изображений (сегментация для SAM) transformers с Trainer и PEFT"),
        _ => format!("{framework} trains language models: an image encoder (ViT, CLIP, SigLIP; SAM) exports for hf, as transformers' image classification (SAM's segmentation) with the Trainer and PEFT"),
    }
}

pub(super) fn speech_only_hf(framework: Framework, lang: Lang) -> String {
    match lang.built() {
        Lang::Ru => format!("для {framework} экспорта Whisper нет: Whisper экспортируется для hf, как распознавание речи transformers с Seq2SeqTrainer и PEFT"),
        _ => format!("no {framework} export for Whisper: Whisper exports for hf, as transformers' speech recognition with Seq2SeqTrainer and PEFT"),
    }
}

impl Note {
    /// The stable code (the profile's warnings keep their own).
    pub fn code(&self) -> &'static str {
        use Note as N;
        match self {
            N::Profile(w) => w.code(),
            N::ModelPlaceholder => "export-model-placeholder",
            N::Tp { .. } => "export-tp",
            N::CkptSelective { .. } => "export-ckpt-selective",
            N::CkptEvery { .. } => "export-ckpt-every",
            N::OptimInBwd { .. } => "export-optim-in-bwd",
            N::OptimFp8 => "export-optim-fp8",
            N::OptimGalore { .. } => "export-optim-galore",
            N::LossFusedLinear => "export-loss-fused-linear",
            N::LossChunked { .. } => "export-loss-chunked",
            N::ActOffload { .. } => "export-act-offload",
            N::AdapterDtype { .. } => "export-adapter-dtype",
            N::PackingSdpa { .. } => "export-packing-sdpa",
            N::OptimImpl { .. } => "export-optim-impl",
            N::TargetsFused { .. } | N::TargetsBertOutput => "export-targets-fused",
            N::OffloadFsdp => "export-offload-fsdp",
            N::StateDictDevice { .. } => "export-state-dict-device",
            N::Vision { .. } => "export-vision",
            N::ImageMethod { .. } => "export-method",
            N::OffloadUnsharded { .. } => "export-offload-unsharded",
            N::OffloadParamStage => "export-offload-param-stage",
            N::MethodAdapter { .. } => "export-method-adapter",
            N::Fp16True => "export-fp16-true",
            N::TorchtuneMethod { .. } | N::LitgptMethod { .. } | N::UnslothFreeze | N::UnslothMethod { .. } => {
                "export-method"
            }
            N::TorchtuneModel { .. } => "export-torchtune-model",
            N::TorchtuneConfigSubstitute { .. } | N::TorchtuneConfigFallback { .. } => "export-torchtune-config",
            N::TorchtuneTargetsMlp | N::LitgptTargetsMlp => "export-targets-mlp",
            N::TorchtuneTargetsEmbed | N::LitgptTargetsEmbed => "export-targets-embed",
            N::TorchtuneTargetsLmHead => "export-targets-lm-head",
            N::TorchtuneLoraDropout => "export-lora-dropout",
            N::TorchtunePrecisionFp16 { .. }
            | N::TorchtuneBf16Mixed
            | N::LitgptPrecision { .. }
            | N::LlamaFactoryBf16Zero3
            | N::UnslothFp32 => "export-precision",
            N::TorchtuneEpochs { .. } => "export-epochs",
            N::TorchtuneZero2 | N::TorchtuneSharding { .. } | N::LitgptSharding { .. } => "export-sharding",
            N::TorchtuneOffloadOptimizer
            | N::TorchtuneOffloadSingle { .. }
            | N::LitgptOffload { .. }
            | N::UnslothOffload { .. } => "export-offload",
            N::TorchtuneAttn | N::UnslothAttn => "export-attn",
            N::LitgptModel { .. } => "export-litgpt-model",
            N::LitgptFreeze | N::AxolotlMethod { .. } | N::LlamaFactoryMethod { .. } => "framework-method",
            N::LitgptDora | N::UnslothDora => "export-dora",
            N::LitgptQuantizeMultiGpu => "export-quantize-multi-gpu",
            N::LitgptOptimizer { .. } => "export-optimizer",
            N::LitgptCkptOneDevice | N::LitgptCkptNone => "export-ckpt",
            N::LitgptPacking => "export-packing",
            N::LitgptCompile => "export-compile",
            N::UnslothFp4 => "export-quant",
            N::UnslothDoubleQuant => "export-double-quant",
        }
    }

    /// The sentence in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => english(self),
            Lang::Ru => russian(self),
        }
    }
}

/// `parts` as a list in prose: "q, k and v" (`and` is the language's word).
fn list(parts: &[&str], and: &str) -> String {
    match parts {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} {and} {last}", init.join(", ")),
    }
}

fn english(n: &Note) -> String {
    use Note as N;
    match n {
        N::Profile(w) => w.message(),
        N::ModelPlaceholder => format!("custom or inferred model: the export names it {PLACEHOLDER}; replace it with the checkpoint whose shape you entered"),
        N::Tp { tp, framework } => format!(
            "tp={tp}: tensor parallelism is not part of this export; {} trains data-parallel only here",
            framework.as_str()
        ),
        N::CkptSelective { ckpt, framework } => format!("ckpt={ckpt}: {} exposes whole-block activation checkpointing only; the export turns full checkpointing on, which saves more memory than estimated", framework.as_str()),
        N::CkptEvery { every, framework } => format!("ckpt_every={every}: {} checkpoints every block; the export does, which saves more memory than estimated (torchtitan's selective_ac_option does every n-th)", framework.as_str()),
        N::OptimInBwd { framework } => format!("optim_in_bwd: {} steps the optimizer after backward; the export keeps every gradient until the step (more memory than estimated)", framework.as_str()),
        N::OptimFp8 => "optim=adamw-fp8-ao: Transformers has no name for torchao's fp8 AdamW; the export uses its 8-bit AdamW (adamw_torch_8bit), same memory".into(),
        N::OptimGalore { framework } => format!("optim=galore-adamw: {} has no GaLore optimizer; the export uses AdamW, whose full-size states take more memory than estimated", framework.as_str()),
        N::LossFusedLinear => "loss=fused-linear: torchtune has no fused linear cross-entropy kernel; the export uses its chunked loss, which holds every chunk's fp32 log-probabilities (more memory than estimated)".into(),
        N::LossChunked { framework } => format!("loss=chunked: {framework} has no chunked cross-entropy; the export turns on Liger's fused linear cross-entropy, which never holds the full logits (less memory than estimated: loss=fused-linear estimates that run)"),
        N::PackingSdpa { framework } => format!("packing=1 with attn=sdpa: {framework} packs samples with restarting position ids, from which transformers builds a block-causal mask, so SDPA repeats k and v to every head and each layer keeps the mask (more memory than estimated, which counts unpadded samples without a mask); attn=flash packs without one"),
        N::AdapterDtype { framework } => format!("adapter_dtype=bf16: {framework} keeps the LoRA adapters in fp32 (PEFT's default), so the exported run holds fp32 adapters and the fp32 copies of their inputs (more memory than estimated: adapter_dtype=fp32 estimates that run)"),
        N::ActOffload { framework } => format!("act_offload=1: {framework} has no setting the export can write to offload saved activations, so the exported run keeps them on the GPU (more memory than estimated: act_offload=0 estimates that run)"),
        N::OptimImpl { optim_impl, framework } => format!("optim_impl={optim_impl}: {framework}'s AdamW runs torch's default implementation (foreach) or the fused one, not this one; the exported step's temporaries differ from the estimate's"),
        N::TargetsFused { parts, module, counted } => format!(
            "targets: this model fuses {} into one {module} linear; LoRA on {module} adapts all of them ({})",
            list(parts, "and"),
            if *counted { "as the estimate counts it" } else { "more trainable parameters than estimated" }
        ),
        N::TargetsBertOutput => "targets: BERT's MLP output is named output.dense, which PEFT also matches in attention.output.dense; the attention output is adapted too".into(),
        N::OffloadFsdp => "offload=optimizer with FSDP: FSDP offloads parameters and optimizer together (fsdp_offload_params); the export keeps everything on the GPU. Use shard=zero2/zero3 for optimizer-only offload".into(),
        N::OffloadUnsharded { offload } => format!("offload={offload}: offload needs DeepSpeed ZeRO or FSDP; with shard=none the export has no offload"),
        N::OffloadParamStage => "offload=all: DeepSpeed offloads parameters only under ZeRO-3; the config offloads the optimizer only".into(),
        N::MethodAdapter { bottleneck } => format!("method=adapter: PEFT has no Houlsby bottleneck adapter; the export leaves the model unwrapped (bottleneck={bottleneck} not applied). Use the adapters library (AdapterHub) for it"),
        N::Fp16True => "precision=fp16-true: the model is loaded in fp16 and trained without a loss scaler (Trainer's fp16=True needs fp32 master weights); watch for overflow".into(),
        N::TorchtuneMethod { method } => format!("method={method}: torchtune has no such recipe; the export is a full fine-tune config"),
        N::TorchtuneModel { model } => format!(
            "{}: torchtune ships no builder tunefit knows; the export names the Llama 3.1 8B builder as a template — replace model._component_ and the checkpointer",
            model.map(|p| format!("model {p}")).unwrap_or_else(|| "this custom model".into())
        ),
        N::TorchtuneConfigSubstitute { model, dir, wanted, config, variant, recipe } => format!(
            "{}: torchtune ships no {dir}/{wanted} config; the export starts from {config} ({variant}) with {recipe}, and the overrides set the model and device count",
            model.unwrap_or("this model")
        ),
        N::TorchtuneConfigFallback { model, kind, dir, size, fallback } => format!(
            "{}: torchtune ships no {kind} config for {dir} {size}; the export starts from {fallback} and overrides its model, checkpointer and tokenizer with this model's; check the rest of it",
            model.unwrap_or("this model")
        ),
        N::TorchtuneTargetsMlp => "targets: torchtune's apply_lora_to_mlp adapts all MLP projections (gate, up, down) together; the export adapts all three".into(),
        N::TorchtuneTargetsEmbed => "targets=embed: torchtune's LoRA builders cannot train the embedding; it stays frozen in this config".into(),
        N::TorchtuneTargetsLmHead => "targets=lm_head: torchtune's Gemma LoRA builders cannot adapt the (tied) output projection; it stays frozen in this config".into(),
        N::TorchtuneLoraDropout => "lora_dropout: torchtune's Gemma 1 LoRA builders fix it at 0.05".into(),
        N::TorchtunePrecisionFp16 { precision } => format!("precision={precision}: torchtune trains in bf16 or fp32 only; the export uses bf16"),
        N::TorchtuneBf16Mixed => "precision=bf16-mixed: torchtune has no mixed precision (no fp32 master weights); dtype bf16 keeps every parameter and optimizer state in bf16".into(),
        N::TorchtuneEpochs { epochs } => format!("epochs={epochs}: torchtune counts whole epochs; the export rounds up (cap steps with max_steps_per_epoch)"),
        N::TorchtuneZero2 => "shard=zero2: torchtune's distributed recipes always use FSDP; reshard_after_forward=False is the nearest (parameters stay gathered between forward and backward)".into(),
        N::TorchtuneSharding { shard } => format!("shard={shard}: torchtune's distributed recipes always shard parameters, gradients and optimizer (FSDP); memory will be lower than estimated"),
        N::TorchtuneOffloadOptimizer => "offload=optimizer: torchtune's distributed recipes offload parameters, gradients and optimizer together (fsdp_cpu_offload) or nothing; the export offloads nothing".into(),
        N::TorchtuneOffloadSingle { offload } => format!("offload={offload}: torchtune's single-device recipes do not offload model states; the export offloads nothing"),
        N::TorchtuneAttn => "attn=eager: torchtune always uses scaled_dot_product_attention; the export cannot select eager attention".into(),
        N::LitgptModel { model } => format!("model {model}: not in litgpt's supported checkpoints; the command names it anyway"),
        N::LitgptFreeze => "method=freeze: litgpt has no train-last-layers recipe; the command is a full fine-tune".into(),
        N::LitgptDora => "method=dora: litgpt has no DoRA; the command runs plain LoRA (magnitude vectors not trained)".into(),
        N::LitgptMethod { method, rank } => format!("method={method}: litgpt has no {method} tuning; the command runs LoRA at rank {rank}"),
        N::LitgptPrecision { precision, bf16 } => format!("precision={precision}: litgpt refuses --quantize with mixed precision; the command uses {}-true (adapters and optimizer states in 16-bit, less memory than estimated)", if *bf16 { "bf16" } else { "16" }),
        N::LitgptQuantizeMultiGpu => "QLoRA on several GPUs: litgpt's finetune_lora refuses --quantize with more than one device".into(),
        N::LitgptTargetsMlp => "targets: litgpt's --lora_mlp adapts every MLP projection together; the command adapts all of them".into(),
        N::LitgptTargetsEmbed => "targets=embed: litgpt's LoRA cannot train the embedding; it stays frozen".into(),
        N::LitgptOptimizer { optim } => format!("optim={optim}: with --quantize litgpt always uses bitsandbytes PagedAdamW (32-bit states); the command names AdamW"),
        N::LitgptSharding { shard } => format!("shard={shard}: litgpt trains on several devices with FSDP full sharding only; memory will be lower than estimated"),
        N::LitgptOffload { offload } => format!("offload={offload}: litgpt's finetune commands have no CPU offload flag; nothing is offloaded"),
        N::LitgptCkptOneDevice => "activation checkpointing: litgpt turns it on only with FSDP (several devices); on one device it has no flag, so activations are kept".into(),
        N::LitgptCkptNone => "ckpt=none: litgpt's FSDP strategy checkpoints every Block on several devices; activations will be lower than estimated".into(),
        N::LitgptPacking => "packing=1: litgpt has no sequence packing; batches are padded".into(),
        N::LitgptCompile => "compile=1: litgpt's finetune commands have no compile flag".into(),
        N::AxolotlMethod { method } => format!("method={method}: Axolotl has no {method} adapter; the config has no adapter section, so it would train every weight; change method or framework"),
        N::LlamaFactoryBf16Zero3 => "precision=bf16-true with ZeRO-3: LLaMA-Factory rejects pure_bf16 under DeepSpeed ZeRO-3, so the config trains with bf16 autocast (bf16: true) and DeepSpeed's bf16 mode instead".into(),
        N::LlamaFactoryMethod { method, rank } => format!("method={method}: LLaMA-Factory has no {method} tuning; the config runs LoRA at rank {rank} instead"),
        N::UnslothFp4 => "quant=fp4: Unsloth loads 4-bit models as NF4 only; the export uses NF4".into(),
        N::UnslothDoubleQuant => "dq=0: Unsloth's 4-bit loading always uses double quantization".into(),
        N::UnslothDora => "method=dora: Unsloth's fast LoRA kernels do not cover DoRA; the export runs plain LoRA".into(),
        N::UnslothFreeze => "method=freeze: Unsloth has no train-last-layers mode; the export is a full fine-tune".into(),
        N::UnslothMethod { method, rank } => format!("method={method}: Unsloth trains LoRA or full weights only; the export runs LoRA at rank {rank}"),
        N::UnslothOffload { offload } => format!("offload={offload}: Unsloth offloads activations (use_gradient_checkpointing=\"unsloth\"), not model states"),
        N::UnslothAttn => "attn=eager: Unsloth picks its own attention kernels (flash or xformers)".into(),
        N::UnslothFp32 => "precision=fp32: Unsloth trains in bf16 or fp16; the export loads float32 anyway".into(),
        N::StateDictDevice { framework } => format!("state_dict=device: the estimate's save gathers the full state dict on each GPU (FSDP1's model.state_dict() default); {framework}'s exported config saves without doing so, so that run's save needs less memory than the estimate's"),
        N::Vision { images, tower, framework } => format!(
            "images={images}, tower={tower}: the exported {framework} config trains on text; images need the model's processor and a vision data collator, and the tower's training is yours to set ({})",
            vision_knob(*framework, Lang::En)
        ),
        N::ImageMethod { method } => format!("method={method}: PEFT's prefix and prompt tuning and the Houlsby adapter are written for language models; the exported image classifier is left unwrapped, so every weight trains (set your own wrapper, or use method=lora)"),
    }
}

/// Where each framework sets what a vision tower does.
fn vision_knob(framework: Framework, lang: Lang) -> &'static str {
    match (framework, lang) {
        (Framework::Unsloth, _) => {
            "FastVisionModel.get_peft_model(finetune_vision_layers=...), UnslothVisionDataCollator"
        }
        (Framework::LlamaFactory, _) => "freeze_vision_tower, freeze_multi_modal_projector, image_max_pixels",
        (_, Lang::En) => "freeze or adapt the `visual` / `vision_tower` modules",
        (_, Lang::Ru) => "заморозьте или адаптируйте модули `visual` / `vision_tower`",
    }
}

fn russian(n: &Note) -> String {
    use Note as N;
    match n {
        N::Profile(w) => w.text(Lang::Ru),
        N::ModelPlaceholder => format!("своя или угаданная модель: в экспорте она названа {PLACEHOLDER}; замените это имя чекпоинтом той формы, что вы задали"),
        N::Tp { tp, framework } => format!(
            "tp={tp}: тензорного параллелизма в этом экспорте нет; здесь {} обучает только с параллелизмом по данным",
            framework.as_str()
        ),
        N::CkptSelective { ckpt, framework } => format!("ckpt={ckpt}: в {} есть только чекпоинтинг активаций целыми блоками; экспорт включает полный чекпоинтинг, он экономит больше памяти, чем в оценке", framework.as_str()),
        N::CkptEvery { every, framework } => format!("ckpt_every={every}: {} чекпоинтит каждый блок; так делает и экспорт, это экономит больше памяти, чем в оценке (каждый n-й блок умеет selective_ac_option в torchtitan)", framework.as_str()),
        N::OptimInBwd { framework } => format!("optim_in_bwd: {} делает шаг оптимизатора после обратного прохода; в экспорте все градиенты живут до шага (памяти больше, чем в оценке)", framework.as_str()),
        N::OptimFp8 => "optim=adamw-fp8-ao: в Transformers нет имени для fp8 AdamW из torchao; экспорт берёт его 8-битный AdamW (adamw_torch_8bit), памяти столько же".into(),
        N::OptimGalore { framework } => format!("optim=galore-adamw: в {} нет оптимизатора GaLore; экспорт берёт AdamW, его полноразмерные состояния занимают больше памяти, чем в оценке", framework.as_str()),
        N::LossFusedLinear => "loss=fused-linear: в torchtune нет слитого ядра линейного слоя и кросс-энтропии; экспорт берёт его поблочную функцию потерь, она хранит fp32 лог-вероятности каждого блока (памяти больше, чем в оценке)".into(),
        N::LossChunked { framework } => format!("loss=chunked: в {framework} нет поблочной кросс-энтропии; экспорт включает слитую линейную кросс-энтропию Liger, которая никогда не держит все логиты целиком (памяти меньше, чем в оценке: такой запуск оценивает loss=fused-linear)"),
        N::PackingSdpa { framework } => format!("packing=1 с attn=sdpa: {framework} упаковывает примеры с перезапускаемыми номерами позиций, по которым transformers строит блочно-причинную маску, так что SDPA повторяет k и v на все головы, а каждый слой хранит маску (памяти больше, чем в оценке, которая считает примеры без паддинга и без маски); attn=flash упаковывает без неё"),
        N::AdapterDtype { framework } => format!("adapter_dtype=bf16: {framework} держит адаптеры LoRA в fp32 (по умолчанию PEFT), так что экспортированный запуск хранит адаптеры в fp32 и fp32-копии их входов (памяти больше, чем в оценке: такой запуск оценивает adapter_dtype=fp32)"),
        N::ActOffload { framework } => format!("act_offload=1: в {framework} нет настройки, которую экспорт мог бы записать для выгрузки сохранённых активаций, поэтому экспортированный запуск держит их на GPU (памяти больше, чем в оценке: такой запуск оценивает act_offload=0)"),
        N::OptimImpl { optim_impl, framework } => format!("optim_impl={optim_impl}: AdamW в {framework} работает в реализации torch по умолчанию (foreach) или в слитой, но не в этой; временные буферы шага экспортированного запуска отличаются от оценки"),
        N::TargetsFused { parts, module, counted } => format!(
            "targets: эта модель объединяет {} в один линейный слой {module}; LoRA на {module} адаптирует их все ({})",
            list(parts, "и"),
            if *counted { "так их и считает оценка" } else { "обучаемых параметров больше, чем в оценке" }
        ),
        N::TargetsBertOutput => "targets: выход MLP в BERT называется output.dense, и PEFT находит это имя и в attention.output.dense; выход внимания тоже адаптируется".into(),
        N::OffloadFsdp => "offload=optimizer с FSDP: FSDP выгружает параметры и оптимизатор только вместе (fsdp_offload_params); экспорт оставляет всё на GPU. Для выгрузки одного оптимизатора выберите shard=zero2/zero3".into(),
        N::OffloadUnsharded { offload } => format!("offload={offload}: выгрузке нужен DeepSpeed ZeRO или FSDP; при shard=none в экспорте выгрузки нет"),
        N::OffloadParamStage => "offload=all: DeepSpeed выгружает параметры только в ZeRO-3; конфиг выгружает лишь оптимизатор".into(),
        N::MethodAdapter { bottleneck } => format!("method=adapter: в PEFT нет bottleneck-адаптера Houlsby; экспорт оставляет модель без обёртки (bottleneck={bottleneck} не применён). Для него используйте библиотеку adapters (AdapterHub)"),
        N::Fp16True => "precision=fp16-true: модель загружается в fp16 и обучается без масштабирования loss (fp16=True в Trainer требует мастер-весов в fp32); следите за переполнением".into(),
        N::TorchtuneMethod { method } => format!("method={method}: в torchtune нет такого рецепта; экспорт — конфиг полного дообучения"),
        N::TorchtuneModel { model } => format!(
            "{}: в torchtune нет известного tunefit builder'а; экспорт берёт за образец builder Llama 3.1 8B — замените model._component_ и checkpointer",
            model.map(|p| format!("модель {p}")).unwrap_or_else(|| "эта своя модель".into())
        ),
        N::TorchtuneConfigSubstitute { model, dir, wanted, config, variant, recipe } => format!(
            "{}: в torchtune нет конфига {dir}/{wanted}; экспорт начинает с {config} ({variant}) и рецепта {recipe}, а переопределения задают модель и число устройств",
            model.unwrap_or("эта модель")
        ),
        N::TorchtuneConfigFallback { model, kind, dir, size, fallback } => format!(
            "{}: в torchtune нет конфига {kind} для {dir} {size}; экспорт начинает с {fallback} и переопределяет в нём модель, checkpointer и токенизатор на те, что у этой модели; остальное в нём проверьте",
            model.unwrap_or("эта модель")
        ),
        N::TorchtuneTargetsMlp => "targets: apply_lora_to_mlp в torchtune адаптирует все проекции MLP (gate, up, down) вместе; экспорт адаптирует все три".into(),
        N::TorchtuneTargetsEmbed => "targets=embed: LoRA-builder'ы torchtune не умеют обучать эмбеддинг; в этом конфиге он заморожен".into(),
        N::TorchtuneTargetsLmHead => "targets=lm_head: LoRA-builder'ы Gemma в torchtune не умеют адаптировать (связанную) выходную проекцию; в этом конфиге она заморожена".into(),
        N::TorchtuneLoraDropout => "lora_dropout: LoRA-builder'ы Gemma 1 в torchtune жёстко задают его равным 0.05".into(),
        N::TorchtunePrecisionFp16 { precision } => format!("precision={precision}: torchtune обучает только в bf16 или fp32; экспорт использует bf16"),
        N::TorchtuneBf16Mixed => "precision=bf16-mixed: в torchtune нет смешанной точности (нет мастер-весов в fp32); при dtype bf16 все параметры и состояния оптимизатора хранятся в bf16".into(),
        N::TorchtuneEpochs { epochs } => format!("epochs={epochs}: torchtune считает только целые эпохи; экспорт округляет вверх (ограничьте шаги через max_steps_per_epoch)"),
        N::TorchtuneZero2 => "shard=zero2: распределённые рецепты torchtune всегда используют FSDP; ближе всего reshard_after_forward=False (параметры остаются собранными между прямым и обратным проходом)".into(),
        N::TorchtuneSharding { shard } => format!("shard={shard}: распределённые рецепты torchtune всегда шардируют параметры, градиенты и оптимизатор (FSDP); памяти уйдёт меньше, чем в оценке"),
        N::TorchtuneOffloadOptimizer => "offload=optimizer: распределённые рецепты torchtune выгружают параметры, градиенты и оптимизатор только вместе (fsdp_cpu_offload) или ничего; экспорт ничего не выгружает".into(),
        N::TorchtuneOffloadSingle { offload } => format!("offload={offload}: рецепты torchtune для одного устройства не выгружают состояния модели; экспорт ничего не выгружает"),
        N::TorchtuneAttn => "attn=eager: torchtune всегда использует scaled_dot_product_attention; выбрать eager-внимание экспорт не может".into(),
        N::LitgptModel { model } => format!("модель {model}: её нет среди поддерживаемых чекпоинтов litgpt; команда всё равно её называет"),
        N::LitgptFreeze => "method=freeze: в litgpt нет рецепта обучения последних слоёв; команда запускает полное дообучение".into(),
        N::LitgptDora => "method=dora: в litgpt нет DoRA; команда запускает обычную LoRA (векторы магнитуд не обучаются)".into(),
        N::LitgptMethod { method, rank } => format!("method={method}: в litgpt нет {method}-тюнинга; команда запускает LoRA ранга {rank}"),
        N::LitgptPrecision { precision, bf16 } => format!("precision={precision}: litgpt не принимает --quantize со смешанной точностью; команда использует {}-true (адаптеры и состояния оптимизатора в 16 битах, памяти меньше, чем в оценке)", if *bf16 { "bf16" } else { "16" }),
        N::LitgptQuantizeMultiGpu => "QLoRA на нескольких GPU: finetune_lora в litgpt не принимает --quantize больше чем с одним устройством".into(),
        N::LitgptTargetsMlp => "targets: --lora_mlp в litgpt адаптирует все проекции MLP вместе; команда адаптирует их все".into(),
        N::LitgptTargetsEmbed => "targets=embed: LoRA в litgpt не умеет обучать эмбеддинг; он остаётся замороженным".into(),
        N::LitgptOptimizer { optim } => format!("optim={optim}: с --quantize litgpt всегда использует PagedAdamW из bitsandbytes (32-битные состояния); в команде указан AdamW"),
        N::LitgptSharding { shard } => format!("shard={shard}: на нескольких устройствах litgpt обучает только с полным шардированием FSDP; памяти уйдёт меньше, чем в оценке"),
        N::LitgptOffload { offload } => format!("offload={offload}: у команд finetune в litgpt нет флага выгрузки на CPU; ничего не выгружается"),
        N::LitgptCkptOneDevice => "чекпоинтинг активаций: litgpt включает его только с FSDP (несколько устройств); на одном устройстве флага нет, и активации хранятся".into(),
        N::LitgptCkptNone => "ckpt=none: стратегия FSDP в litgpt на нескольких устройствах чекпоинтит каждый Block; активаций будет меньше, чем в оценке".into(),
        N::LitgptPacking => "packing=1: в litgpt нет упаковки последовательностей; батчи дополняются паддингом".into(),
        N::LitgptCompile => "compile=1: у команд finetune в litgpt нет флага компиляции".into(),
        N::AxolotlMethod { method } => format!("method={method}: в Axolotl нет адаптера {method}; в конфиге нет раздела адаптера, и он обучал бы все веса; смените метод или фреймворк"),
        N::LlamaFactoryBf16Zero3 => "precision=bf16-true с ZeRO-3: LLaMA-Factory не принимает pure_bf16 под DeepSpeed ZeRO-3, поэтому конфиг обучает с autocast в bf16 (bf16: true) и в режиме bf16 у DeepSpeed".into(),
        N::LlamaFactoryMethod { method, rank } => format!("method={method}: в LLaMA-Factory нет {method}-тюнинга; вместо него конфиг запускает LoRA ранга {rank}"),
        N::UnslothFp4 => "quant=fp4: Unsloth загружает 4-битные модели только как NF4; экспорт использует NF4".into(),
        N::UnslothDoubleQuant => "dq=0: при 4-битной загрузке Unsloth всегда использует двойное квантование".into(),
        N::UnslothDora => "method=dora: быстрые LoRA-ядра Unsloth не поддерживают DoRA; экспорт запускает обычную LoRA".into(),
        N::UnslothFreeze => "method=freeze: в Unsloth нет режима обучения последних слоёв; экспорт — полное дообучение".into(),
        N::UnslothMethod { method, rank } => format!("method={method}: Unsloth обучает только LoRA или все веса; экспорт запускает LoRA ранга {rank}"),
        N::UnslothOffload { offload } => format!("offload={offload}: Unsloth выгружает активации (use_gradient_checkpointing=\"unsloth\"), а не состояния модели"),
        N::UnslothAttn => "attn=eager: Unsloth сам выбирает ядра внимания (flash или xformers)".into(),
        N::UnslothFp32 => "precision=fp32: Unsloth обучает в bf16 или fp16; экспорт всё равно загружает float32".into(),
        N::StateDictDevice { framework } => format!("state_dict=device: сохранение в оценке собирает полный state dict на каждом GPU (model.state_dict() у FSDP1 по умолчанию); экспортированная конфигурация {framework} сохраняет без этого, так что её сохранению нужно меньше памяти, чем в оценке"),
        N::Vision { images, tower, framework } => format!(
            "images={images}, tower={tower}: экспортированная конфигурация {framework} обучает на тексте; изображениям нужны процессор модели и коллатор для изображений, а обучение энкодера изображений задаёте вы ({})",
            vision_knob(*framework, Lang::Ru)
        ),
        N::ImageMethod { method } => format!("method={method}: prefix и prompt tuning из PEFT и адаптер Houlsby написаны для языковых моделей; экспортированный классификатор изображений остаётся без обёртки, так что обучаются все веса (добавьте свою обёртку или используйте method=lora)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Each variant's place in the enum: the match is exhaustive, so a new variant does not
    /// compile until it has a number, and `samples_cover_every_variant` then asks for a sample.
    fn ordinal(n: &Note) -> usize {
        use Note as N;
        match n {
            N::Profile(_) => 0,
            N::ModelPlaceholder => 1,
            N::Tp { .. } => 2,
            N::CkptSelective { .. } => 3,
            N::CkptEvery { .. } => 4,
            N::OptimInBwd { .. } => 5,
            N::OptimFp8 => 6,
            N::OptimGalore { .. } => 7,
            N::LossFusedLinear => 8,
            N::TargetsFused { .. } => 9,
            N::TargetsBertOutput => 10,
            N::OffloadFsdp => 11,
            N::OffloadUnsharded { .. } => 12,
            N::OffloadParamStage => 13,
            N::MethodAdapter { .. } => 14,
            N::Fp16True => 15,
            N::TorchtuneMethod { .. } => 16,
            N::TorchtuneModel { .. } => 17,
            N::TorchtuneConfigSubstitute { .. } => 18,
            N::TorchtuneConfigFallback { .. } => 19,
            N::TorchtuneTargetsMlp => 20,
            N::TorchtuneTargetsEmbed => 21,
            N::TorchtuneTargetsLmHead => 22,
            N::TorchtuneLoraDropout => 23,
            N::TorchtunePrecisionFp16 { .. } => 24,
            N::TorchtuneBf16Mixed => 25,
            N::TorchtuneEpochs { .. } => 26,
            N::TorchtuneZero2 => 27,
            N::TorchtuneSharding { .. } => 28,
            N::TorchtuneOffloadOptimizer => 29,
            N::TorchtuneOffloadSingle { .. } => 30,
            N::TorchtuneAttn => 31,
            N::LitgptModel { .. } => 32,
            N::LitgptFreeze => 33,
            N::LitgptDora => 34,
            N::LitgptMethod { .. } => 35,
            N::LitgptPrecision { .. } => 36,
            N::LitgptQuantizeMultiGpu => 37,
            N::LitgptTargetsMlp => 38,
            N::LitgptTargetsEmbed => 39,
            N::LitgptOptimizer { .. } => 40,
            N::LitgptSharding { .. } => 41,
            N::LitgptOffload { .. } => 42,
            N::LitgptCkptOneDevice => 43,
            N::LitgptCkptNone => 44,
            N::LitgptPacking => 45,
            N::LitgptCompile => 46,
            N::AxolotlMethod { .. } => 47,
            N::LlamaFactoryBf16Zero3 => 48,
            N::LlamaFactoryMethod { .. } => 49,
            N::UnslothFp4 => 50,
            N::UnslothDoubleQuant => 51,
            N::UnslothDora => 52,
            N::UnslothFreeze => 53,
            N::UnslothMethod { .. } => 54,
            N::UnslothOffload { .. } => 55,
            N::UnslothAttn => 56,
            N::UnslothFp32 => 57,
            N::StateDictDevice { .. } => 58,
            N::Vision { .. } => 59,
            N::ImageMethod { .. } => 60,
            N::LossChunked { .. } => 61,
            N::ActOffload { .. } => 62,
            N::OptimImpl { .. } => 63,
            N::AdapterDtype { .. } => 64,
            N::PackingSdpa { .. } => 65,
        }
    }
    const VARIANTS: usize = 66;

    /// At least one note of every variant, and a second one where a field changes the words.
    fn samples() -> Vec<Note> {
        use Note as N;
        let tt = Framework::Torchtune;
        vec![
            N::Profile(Warning::FrameworkMultiGpu),
            N::Profile(Warning::FrameworkMethod { framework: Framework::Litgpt, method: Method::Freeze }),
            N::ModelPlaceholder,
            N::Tp { tp: 2, framework: tt },
            N::CkptSelective { ckpt: Checkpointing::Selective, framework: Framework::Hf },
            N::CkptEvery { every: 3, framework: Framework::Axolotl },
            N::OptimInBwd { framework: Framework::Litgpt },
            N::OptimFp8,
            N::OptimGalore { framework: tt },
            N::OptimGalore { framework: Framework::Litgpt },
            N::LossFusedLinear,
            N::LossChunked { framework: Framework::Hf },
            N::ActOffload { framework: Framework::Litgpt },
            N::AdapterDtype { framework: Framework::LlamaFactory },
            N::PackingSdpa { framework: Framework::Hf },
            N::OptimImpl { optim_impl: OptimizerImpl::ForLoop, framework: Framework::Axolotl },
            N::TargetsFused { parts: &["q", "k", "v"], module: "c_attn", counted: true },
            N::TargetsFused { parts: &["gate", "up"], module: "gate_up_proj", counted: false },
            N::TargetsBertOutput,
            N::OffloadFsdp,
            N::OffloadUnsharded { offload: Offload::Optimizer },
            N::OffloadParamStage,
            N::MethodAdapter { bottleneck: 48 },
            N::Fp16True,
            N::TorchtuneMethod { method: Method::Prefix },
            N::TorchtuneModel { model: Some("gpt2") },
            N::TorchtuneModel { model: None },
            N::TorchtuneConfigSubstitute {
                model: Some("qwen2.5-14b"),
                dir: "qwen2_5".into(),
                wanted: "14B_full_single_device".into(),
                config: "qwen2_5/14B_lora_single_device".into(),
                variant: "lora".into(),
                recipe: "full_finetune_single_device".into(),
            },
            N::TorchtuneConfigFallback {
                model: None,
                kind: "qlora",
                dir: "qwen2_5".into(),
                size: "72B".into(),
                fallback: "llama3_1/8B_qlora_single_device".into(),
            },
            N::TorchtuneTargetsMlp,
            N::TorchtuneTargetsEmbed,
            N::TorchtuneTargetsLmHead,
            N::TorchtuneLoraDropout,
            N::TorchtunePrecisionFp16 { precision: Precision::Fp16True },
            N::TorchtuneBf16Mixed,
            N::TorchtuneEpochs { epochs: 1.5 },
            N::TorchtuneZero2,
            N::TorchtuneSharding { shard: ShardingStrategy::Zero1 },
            N::TorchtuneOffloadOptimizer,
            N::TorchtuneOffloadSingle { offload: Offload::All },
            N::TorchtuneAttn,
            N::LitgptModel { model: "bert-base-uncased" },
            N::LitgptFreeze,
            N::LitgptDora,
            N::LitgptMethod { method: Method::Prompt, rank: 16 },
            N::LitgptPrecision { precision: Precision::Bf16Mixed, bf16: true },
            N::LitgptPrecision { precision: Precision::Fp16Mixed, bf16: false },
            N::LitgptQuantizeMultiGpu,
            N::LitgptTargetsMlp,
            N::LitgptTargetsEmbed,
            N::LitgptOptimizer { optim: Optimizer::AdamW8bit },
            N::LitgptSharding { shard: ShardingStrategy::Zero2 },
            N::LitgptOffload { offload: Offload::Optimizer },
            N::LitgptCkptOneDevice,
            N::LitgptCkptNone,
            N::LitgptPacking,
            N::LitgptCompile,
            N::AxolotlMethod { method: Method::Adapter },
            N::LlamaFactoryBf16Zero3,
            N::LlamaFactoryMethod { method: Method::Prefix, rank: 8 },
            N::UnslothFp4,
            N::UnslothDoubleQuant,
            N::UnslothDora,
            N::UnslothFreeze,
            N::UnslothMethod { method: Method::Adapter, rank: 32 },
            N::UnslothOffload { offload: Offload::All },
            N::UnslothAttn,
            N::UnslothFp32,
            N::StateDictDevice { framework: Framework::Hf },
            N::Vision { images: 2, tower: TowerTraining::Lora, framework: Framework::Unsloth },
            N::Vision { images: 1, tower: TowerTraining::Frozen, framework: Framework::LlamaFactory },
            N::Vision { images: 0, tower: TowerTraining::Full, framework: Framework::Hf },
            N::ImageMethod { method: Method::Prefix },
        ]
    }

    #[test]
    fn samples_cover_every_variant() {
        let mut seen = [false; VARIANTS];
        for n in samples() {
            seen[ordinal(&n)] = true;
        }
        let missing: Vec<usize> = (0..VARIANTS).filter(|&i| !seen[i]).collect();
        assert!(missing.is_empty(), "variants with no sample (by ordinal): {missing:?}");
    }

    /// Two notes that read the same would tell the person the same thing twice, or hide which
    /// setting a note is about.
    fn distinct_in(lang: Lang) {
        let mut by_text: BTreeMap<String, &Note> = BTreeMap::new();
        let all = samples();
        for n in &all {
            if let Some(other) = by_text.insert(n.text(lang), n) {
                panic!("{lang:?}: {n:?} and {other:?} read the same: {}", n.text(lang));
            }
        }
    }

    #[test]
    fn no_two_notes_read_the_same_in_english() {
        distinct_in(Lang::En);
    }

    #[test]
    fn no_two_notes_read_the_same_in_russian() {
        distinct_in(Lang::Ru);
    }

    #[test]
    fn every_note_reads_in_russian_with_the_figures_of_its_english() {
        for n in samples() {
            let (en, ru) = (n.text(Lang::En), n.text(Lang::Ru));
            assert!(ru.chars().any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap())), "{n:?}: {ru}");
            assert_ne!(en, ru);
            for fig in en.split(|c: char| !c.is_ascii_digit()).filter(|f| !f.is_empty()) {
                assert!(ru.contains(fig), "{n:?}: figure {fig} of {en:?} lost in {ru:?}");
            }
        }
    }

    #[test]
    fn figures_land_in_their_places() {
        let fused = Note::TargetsFused { parts: &["q", "k", "v"], module: "c_attn", counted: false };
        assert_eq!(fused.text(Lang::En), "targets: this model fuses q, k and v into one c_attn linear; LoRA on c_attn adapts all of them (more trainable parameters than estimated)");
        assert_eq!(fused.text(Lang::Ru), "targets: эта модель объединяет q, k и v в один линейный слой c_attn; LoRA на c_attn адаптирует их все (обучаемых параметров больше, чем в оценке)");
        let counted = Note::TargetsFused { parts: &["q", "v"], module: "qkv", counted: true };
        assert_eq!(counted.text(Lang::En), "targets: this model fuses q and v into one qkv linear; LoRA on qkv adapts all of them (as the estimate counts it)");
        let method = Note::LitgptMethod { method: Method::Prefix, rank: 16 };
        assert_eq!(
            method.text(Lang::Ru),
            "method=prefix: в litgpt нет prefix-тюнинга; команда запускает LoRA ранга 16"
        );
        assert!(Note::TorchtuneModel { model: None }.text(Lang::Ru).starts_with("эта своя модель: "));
        assert!(Note::TorchtuneModel { model: Some("gpt2") }.text(Lang::Ru).starts_with("модель gpt2: "));
        let w = Warning::FrameworkMultiGpu;
        assert_eq!(Note::Profile(w.clone()).text(Lang::Ru), w.text(Lang::Ru));
        assert_eq!(Note::Profile(w.clone()).code(), w.code());
    }
}
