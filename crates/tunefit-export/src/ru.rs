//! The exporter's notes in Russian (every string on the page is translated). They ship in this
//! lazily loaded module rather than in the page's wasm, so the first load does not grow. Same
//! scheme as the page's src/i18n.rs (`tunefit_core::i18n_template`): the code, the English
//! sentence as crates/tunefit-core/src/export/ formats it (`{}` for each figure) and
//! the Russian sentence (`{0}`, `{1}`, … place the figures). A sentence the core changes
//! matches no row and stays English rather than being lost. The framework profile's own
//! warnings (`framework::unsupported`) that an export repeats are translated by the page, as
//! in its notices.

use tunefit_core::i18n_template::translate;

/// (code, English template, Russian template): the notes several frameworks share first, then
/// each framework's own.
pub static EXPORT_RU: &[(&str, &str, &str)] = &[
    ("export-model-placeholder", "custom or inferred model: the export names it {}; replace it with the checkpoint whose shape you entered",
        "своя или угаданная модель: в экспорте она названа {0}; замените это имя чекпоинтом той формы, что вы задали"),
    ("export-tp", "tp={}: tensor parallelism is not part of this export; {} trains data-parallel only here",
        "tp={0}: тензорного параллелизма в этом экспорте нет; здесь {1} обучает только с параллелизмом по данным"),
    ("export-ckpt-selective", "ckpt={}: {} exposes whole-block activation checkpointing only; the export turns full checkpointing on, which saves more memory than estimated",
        "ckpt={0}: в {1} есть только чекпоинтинг активаций целыми блоками; экспорт включает полный чекпоинтинг, он экономит больше памяти, чем в оценке"),
    ("export-ckpt-every", "ckpt_every={}: {} checkpoints every block; the export does, which saves more memory than estimated (torchtitan's selective_ac_option does every n-th)",
        "ckpt_every={0}: {1} чекпоинтит каждый блок; так делает и экспорт, это экономит больше памяти, чем в оценке (каждый n-й блок умеет selective_ac_option в torchtitan)"),
    ("export-optim-in-bwd", "optim_in_bwd: {} steps the optimizer after backward; the export keeps every gradient until the step (more memory than estimated)",
        "optim_in_bwd: {0} делает шаг оптимизатора после обратного прохода; в экспорте все градиенты живут до шага (памяти больше, чем в оценке)"),
    ("export-optim-fp8", "optim=adamw-fp8-ao: Transformers has no name for torchao's fp8 AdamW; the export uses its 8-bit AdamW (adamw_torch_8bit), same memory",
        "optim=adamw-fp8-ao: в Transformers нет имени для fp8 AdamW из torchao; экспорт берёт его 8-битный AdamW (adamw_torch_8bit), памяти столько же"),
    ("export-optim-galore", "optim=galore-adamw: torchtune has no GaLore optimizer; the export uses AdamW, whose full-size states take more memory than estimated",
        "optim=galore-adamw: в torchtune нет оптимизатора GaLore; экспорт берёт AdamW, его полноразмерные состояния занимают больше памяти, чем в оценке"),
    ("export-optim-galore", "optim=galore-adamw: litgpt has no GaLore optimizer; the export uses AdamW, whose full-size states take more memory than estimated",
        "optim=galore-adamw: в litgpt нет оптимизатора GaLore; экспорт берёт AdamW, его полноразмерные состояния занимают больше памяти, чем в оценке"),
    ("export-loss-fused-linear", "loss=fused-linear: torchtune has no fused linear cross-entropy kernel; the export uses its chunked loss, which holds every chunk's fp32 log-probabilities (more memory than estimated)",
        "loss=fused-linear: в torchtune нет слитого ядра линейного слоя и кросс-энтропии; экспорт берёт его поблочную функцию потерь, она хранит fp32 лог-вероятности каждого блока (памяти больше, чем в оценке)"),
    ("export-targets-fused", "targets: this model fuses {} into one {} linear; LoRA on {} adapts all of them (more trainable parameters than estimated)",
        "targets: эта модель объединяет {0} в один линейный слой {1}; LoRA на {2} адаптирует их все (обучаемых параметров больше, чем в оценке)"),
    ("export-targets-fused", "targets: BERT's MLP output is named output.dense, which PEFT also matches in attention.output.dense; the attention output is adapted too",
        "targets: выход MLP в BERT называется output.dense, и PEFT находит это имя и в attention.output.dense; выход внимания тоже адаптируется"),
    ("export-offload-fsdp", "offload=optimizer with FSDP: FSDP offloads parameters and optimizer together (fsdp_offload_params); the export keeps everything on the GPU. Use shard=zero2/zero3 for optimizer-only offload",
        "offload=optimizer с FSDP: FSDP выгружает параметры и оптимизатор только вместе (fsdp_offload_params); экспорт оставляет всё на GPU. Для выгрузки одного оптимизатора выберите shard=zero2/zero3"),
    ("export-offload-unsharded", "offload={}: offload needs DeepSpeed ZeRO or FSDP; with shard=none the export has no offload",
        "offload={0}: выгрузке нужен DeepSpeed ZeRO или FSDP; при shard=none в экспорте выгрузки нет"),
    ("export-offload-param-stage", "offload=all: DeepSpeed offloads parameters only under ZeRO-3; the config offloads the optimizer only",
        "offload=all: DeepSpeed выгружает параметры только в ZeRO-3; конфиг выгружает лишь оптимизатор"),
    ("export-method-adapter", "method=adapter: PEFT has no Houlsby bottleneck adapter; the export leaves the model unwrapped (bottleneck={} not applied). Use the adapters library (AdapterHub) for it",
        "method=adapter: в PEFT нет bottleneck-адаптера Houlsby; экспорт оставляет модель без обёртки (bottleneck={0} не применён). Для него используйте библиотеку adapters (AdapterHub)"),
    ("export-fp16-true", "precision=fp16-true: the model is loaded in fp16 and trained without a loss scaler (Trainer's fp16=True needs fp32 master weights); watch for overflow",
        "precision=fp16-true: модель загружается в fp16 и обучается без масштабирования loss (fp16=True в Trainer требует мастер-весов в fp32); следите за переполнением"),
    // torchtune
    ("export-method", "method={}: torchtune has no such recipe; the export is a full fine-tune config",
        "method={0}: в torchtune нет такого рецепта; экспорт — конфиг полного дообучения"),
    ("export-torchtune-model", "{}: torchtune ships no builder tunefit knows; the export names the Llama 3.1 8B builder as a template — replace model._component_ and the checkpointer",
        "{0}: в torchtune нет известного tunefit builder'а; экспорт берёт за образец builder Llama 3.1 8B — замените model._component_ и checkpointer"),
    ("export-torchtune-config", "{}: torchtune ships no {}/{} config; the export starts from {} ({}) with {}, and the overrides set the model and device count",
        "{0}: в torchtune нет конфига {1}/{2}; экспорт начинает с {3} ({4}) и рецепта {5}, а переопределения задают модель и число устройств"),
    ("export-torchtune-config", "{}: torchtune ships no {} config for {} {}; the export starts from {} and overrides its model, checkpointer and tokenizer with this model's; check the rest of it",
        "{0}: в torchtune нет конфига {1} для {2} {3}; экспорт начинает с {4} и переопределяет в нём модель, checkpointer и токенизатор на те, что у этой модели; остальное в нём проверьте"),
    ("export-targets-mlp", "targets: torchtune's apply_lora_to_mlp adapts all MLP projections (gate, up, down) together; the export adapts all three",
        "targets: apply_lora_to_mlp в torchtune адаптирует все проекции MLP (gate, up, down) вместе; экспорт адаптирует все три"),
    ("export-targets-embed", "targets=embed: torchtune's LoRA builders cannot train the embedding; it stays frozen in this config",
        "targets=embed: LoRA-builder'ы torchtune не умеют обучать эмбеддинг; в этом конфиге он заморожен"),
    ("export-targets-lm-head", "targets=lm_head: torchtune's Gemma LoRA builders cannot adapt the (tied) output projection; it stays frozen in this config",
        "targets=lm_head: LoRA-builder'ы Gemma в torchtune не умеют адаптировать (связанную) выходную проекцию; в этом конфиге она заморожена"),
    ("export-lora-dropout", "lora_dropout: torchtune's Gemma 1 LoRA builders fix it at 0.05",
        "lora_dropout: LoRA-builder'ы Gemma 1 в torchtune жёстко задают его равным 0.05"),
    ("export-precision", "precision={}: torchtune trains in bf16 or fp32 only; the export uses bf16",
        "precision={0}: torchtune обучает только в bf16 или fp32; экспорт использует bf16"),
    ("export-precision", "precision=bf16-mixed: torchtune has no mixed precision (no fp32 master weights); dtype bf16 keeps every parameter and optimizer state in bf16",
        "precision=bf16-mixed: в torchtune нет смешанной точности (нет мастер-весов в fp32); при dtype bf16 все параметры и состояния оптимизатора хранятся в bf16"),
    ("export-epochs", "epochs={}: torchtune counts whole epochs; the export rounds up (cap steps with max_steps_per_epoch)",
        "epochs={0}: torchtune считает только целые эпохи; экспорт округляет вверх (ограничьте шаги через max_steps_per_epoch)"),
    ("export-sharding", "shard=zero2: torchtune's distributed recipes always use FSDP; reshard_after_forward=False is the nearest (parameters stay gathered between forward and backward)",
        "shard=zero2: распределённые рецепты torchtune всегда используют FSDP; ближе всего reshard_after_forward=False (параметры остаются собранными между прямым и обратным проходом)"),
    ("export-sharding", "shard={}: torchtune's distributed recipes always shard parameters, gradients and optimizer (FSDP); memory will be lower than estimated",
        "shard={0}: распределённые рецепты torchtune всегда шардируют параметры, градиенты и оптимизатор (FSDP); памяти уйдёт меньше, чем в оценке"),
    ("export-offload", "offload=optimizer: torchtune's distributed recipes offload parameters, gradients and optimizer together (fsdp_cpu_offload) or nothing; the export offloads nothing",
        "offload=optimizer: распределённые рецепты torchtune выгружают параметры, градиенты и оптимизатор только вместе (fsdp_cpu_offload) или ничего; экспорт ничего не выгружает"),
    ("export-offload", "offload={}: torchtune's single-device recipes do not offload model states; the export offloads nothing",
        "offload={0}: рецепты torchtune для одного устройства не выгружают состояния модели; экспорт ничего не выгружает"),
    ("export-attn", "attn=eager: torchtune always uses scaled_dot_product_attention; the export cannot select eager attention",
        "attn=eager: torchtune всегда использует scaled_dot_product_attention; выбрать eager-внимание экспорт не может"),
    // litgpt
    ("export-litgpt-model", "model {}: not in litgpt's supported checkpoints; the command names it anyway",
        "модель {0}: её нет среди поддерживаемых чекпоинтов litgpt; команда всё равно её называет"),
    ("framework-method", "method=freeze: litgpt has no train-last-layers recipe; the command is a full fine-tune",
        "method=freeze: в litgpt нет рецепта обучения последних слоёв; команда запускает полное дообучение"),
    ("export-dora", "method=dora: litgpt has no DoRA; the command runs plain LoRA (magnitude vectors not trained)",
        "method=dora: в litgpt нет DoRA; команда запускает обычную LoRA (векторы магнитуд не обучаются)"),
    ("export-method", "method={}: litgpt has no {} tuning; the command runs LoRA at rank {}",
        "method={0}: в litgpt нет {1}-тюнинга; команда запускает LoRA ранга {2}"),
    ("export-precision", "precision={}: litgpt refuses --quantize with mixed precision; the command uses {}-true (adapters and optimizer states in 16-bit, less memory than estimated)",
        "precision={0}: litgpt не принимает --quantize со смешанной точностью; команда использует {1}-true (адаптеры и состояния оптимизатора в 16 битах, памяти меньше, чем в оценке)"),
    ("export-quantize-multi-gpu", "QLoRA on several GPUs: litgpt's finetune_lora refuses --quantize with more than one device",
        "QLoRA на нескольких GPU: finetune_lora в litgpt не принимает --quantize больше чем с одним устройством"),
    ("export-targets-mlp", "targets: litgpt's --lora_mlp adapts every MLP projection together; the command adapts all of them",
        "targets: --lora_mlp в litgpt адаптирует все проекции MLP вместе; команда адаптирует их все"),
    ("export-targets-embed", "targets=embed: litgpt's LoRA cannot train the embedding; it stays frozen",
        "targets=embed: LoRA в litgpt не умеет обучать эмбеддинг; он остаётся замороженным"),
    ("export-optimizer", "optim={}: with --quantize litgpt always uses bitsandbytes PagedAdamW (32-bit states); the command names AdamW",
        "optim={0}: с --quantize litgpt всегда использует PagedAdamW из bitsandbytes (32-битные состояния); в команде указан AdamW"),
    ("export-sharding", "shard={}: litgpt trains on several devices with FSDP full sharding only; memory will be lower than estimated",
        "shard={0}: на нескольких устройствах litgpt обучает только с полным шардированием FSDP; памяти уйдёт меньше, чем в оценке"),
    ("export-offload", "offload={}: litgpt's finetune commands have no CPU offload flag; nothing is offloaded",
        "offload={0}: у команд finetune в litgpt нет флага выгрузки на CPU; ничего не выгружается"),
    ("export-ckpt", "activation checkpointing: litgpt turns it on only with FSDP (several devices); on one device it has no flag, so activations are kept",
        "чекпоинтинг активаций: litgpt включает его только с FSDP (несколько устройств); на одном устройстве флага нет, и активации хранятся"),
    ("export-ckpt", "ckpt=none: litgpt's FSDP strategy checkpoints every Block on several devices; activations will be lower than estimated",
        "ckpt=none: стратегия FSDP в litgpt на нескольких устройствах чекпоинтит каждый Block; активаций будет меньше, чем в оценке"),
    ("export-packing", "packing=1: litgpt has no sequence packing; batches are padded",
        "packing=1: в litgpt нет упаковки последовательностей; батчи дополняются паддингом"),
    ("export-compile", "compile=1: litgpt's finetune commands have no compile flag",
        "compile=1: у команд finetune в litgpt нет флага компиляции"),
    // Axolotl
    ("framework-method", "method={}: Axolotl has no {} adapter; the config has no adapter section, so it would train every weight; change method or framework",
        "method={0}: в Axolotl нет адаптера {1}; в конфиге нет раздела адаптера, и он обучал бы все веса; смените метод или фреймворк"),
    // LLaMA-Factory
    ("export-precision", "precision=bf16-true with ZeRO-3: LLaMA-Factory rejects pure_bf16 under DeepSpeed ZeRO-3, so the config trains with bf16 autocast (bf16: true) and DeepSpeed's bf16 mode instead",
        "precision=bf16-true с ZeRO-3: LLaMA-Factory не принимает pure_bf16 под DeepSpeed ZeRO-3, поэтому конфиг обучает с autocast в bf16 (bf16: true) и в режиме bf16 у DeepSpeed"),
    ("framework-method", "method={}: LLaMA-Factory has no {} tuning; the config runs LoRA at rank {} instead",
        "method={0}: в LLaMA-Factory нет {1}-тюнинга; вместо него конфиг запускает LoRA ранга {2}"),
    // Unsloth
    ("export-quant", "quant=fp4: Unsloth loads 4-bit models as NF4 only; the export uses NF4",
        "quant=fp4: Unsloth загружает 4-битные модели только как NF4; экспорт использует NF4"),
    ("export-double-quant", "dq=0: Unsloth's 4-bit loading always uses double quantization",
        "dq=0: при 4-битной загрузке Unsloth всегда использует двойное квантование"),
    ("export-dora", "method=dora: Unsloth's fast LoRA kernels do not cover DoRA; the export runs plain LoRA",
        "method=dora: быстрые LoRA-ядра Unsloth не поддерживают DoRA; экспорт запускает обычную LoRA"),
    ("export-method", "method=freeze: Unsloth has no train-last-layers mode; the export is a full fine-tune",
        "method=freeze: в Unsloth нет режима обучения последних слоёв; экспорт — полное дообучение"),
    ("export-method", "method={}: Unsloth trains LoRA or full weights only; the export runs LoRA at rank {}",
        "method={0}: Unsloth обучает только LoRA или все веса; экспорт запускает LoRA ранга {1}"),
    ("export-offload", "offload={}: Unsloth offloads activations (use_gradient_checkpointing=\"unsloth\"), not model states",
        "offload={0}: Unsloth выгружает активации (use_gradient_checkpointing=\"unsloth\"), а не состояния модели"),
    ("export-attn", "attn=eager: Unsloth picks its own attention kernels (flash or xformers)",
        "attn=eager: Unsloth сам выбирает ядра внимания (flash или xformers)"),
    ("export-precision", "precision=fp32: Unsloth trains in bf16 or fp16; the export loads float32 anyway",
        "precision=fp32: Unsloth обучает в bf16 или fp16; экспорт всё равно загружает float32"),
];

/// A figure as the exporter writes it, in Russian: the few English words it formats into a
/// sentence (which model, which projections); ids, values and numbers as written.
fn figure(f: &str) -> String {
    match f {
        "this custom model" => "эта своя модель".into(),
        "this model" => "эта модель".into(),
        _ => match f.strip_prefix("model ") {
            Some(id) => format!("модель {id}"),
            None => f.replace(" and ", " и "),
        },
    }
}

/// An exporter note in Russian, or `None` when no row follows it (the caller keeps English).
pub fn message(code: &str, message: &str) -> Option<String> {
    translate(EXPORT_RU, code, message, &figure)
}
