//! The sentences of each warning, in English and Russian, from its figures. A figure is
//! formatted here once per language (hours, money, counts); nothing reads a sentence back.

use super::{plural_ru, OfferName, Warning};
use crate::query::{format_count, Currency, Framework, Method, TowerTraining};

fn money(x: f64, c: Currency) -> String {
    c.money(x, false)
}

/// Money with the decimal comma.
fn money_ru(x: f64, c: Currency) -> String {
    c.money(x, true)
}

fn offer_en(o: &OfferName) -> String {
    format!("{}× {} at {} ({})", o.gpus, o.gpu, o.provider, o.pricing)
}

fn offer_ru(o: &OfferName) -> String {
    format!("{}× {} у {} ({})", o.gpus, o.gpu, o.provider, pricing_ru(&o.pricing))
}

fn hours_en(h: f64) -> String {
    if h < 1.0 {
        format!("{:.0} min", h * 60.0)
    } else {
        format!("{h:.1} h")
    }
}

fn hours_ru(h: f64) -> String {
    if h < 1.0 {
        format!("{:.0} мин", h * 60.0)
    } else {
        format!("{h:.1} ч").replace('.', ",")
    }
}

fn method_ru(m: Method) -> &'static str {
    match m {
        Method::Prefix => "prefix tuning",
        Method::Prompt => "prompt tuning",
        Method::Adapter => "адаптера-бутылочного горлышка",
        Method::Full => "полного дообучения",
        Method::Freeze => "заморозки слоёв",
        m => m.as_str(),
    }
}

fn pricing_ru(p: &str) -> &str {
    if p == "on-demand" {
        "по требованию"
    } else {
        p
    }
}

pub(super) fn english(w: &Warning) -> String {
    use Warning as W;
    match w {
        W::FrameworkMethod { framework, method } => {
            format!("{framework} has no {method} recipe; the estimate assumes a PEFT-style implementation")
        }
        W::FrameworkMultiGpu => {
            "unsloth (open-source) trains on one GPU; multi-GPU and sharding are not supported".into()
        }
        W::FrameworkPrecision { framework, precision } => framework_precision_en(*framework, *precision),
        W::QloraZero3Offload => "QLoRA with ZeRO-3 parameter offload: bitsandbytes 4-bit weights cannot be offloaded by DeepSpeed; expect failure or no saving".into(),
        W::AxolotlFp32Modules => "axolotl trains the token table, LM head and norms in fp32 with attn=sdpa or eager (up to 8 more bytes per parameter of them, and an fp32 residual stream), which the estimate does not count; attn=flash avoids it".into(),
        W::FrameworkImageEncoder { framework } => format!("{framework} trains language models: this image encoder is priced with its profile's kernels and defaults all the same, which its code may not apply to a ViT (transformers' Trainer: framework=hf)"),
        W::FrameworkQuant { quant } => {
            format!("torchtune's QLoRA uses torchao NF4 only; quant={quant} is not available")
        }
        W::PagedOptimizer => "paged optimizer states live in CUDA managed memory: they are not in torch's allocated/reserved figures, count in nvidia-smi, and may be evicted to host RAM under pressure".into(),
        W::ShardOneGpu => "sharding over one data-parallel rank saves nothing".into(),
        W::OffloadNeedsSharding => {
            "optimizer offload needs DeepSpeed ZeRO or FSDP (shard=zero1..3/fsdp); assumed anyway".into()
        }
        W::OffloadNeedsZero3 => "parameter offload needs ZeRO-3 or FSDP full shard (shard=zero3|fsdp)".into(),
        W::InferredArchitecture { layers, hidden, ffn, vocab } => format!(
            "architecture guessed from the parameter count: {layers} layers, hidden {hidden}, ffn {ffn}, vocab {vocab}; give model= or the arch keys for exact figures"
        ),
        W::FrozenVisionTower { params, quantized } => format!(
            "the checkpoint loads a vision tower and projector ({} parameters) beside the language model: they are in the weights, frozen, {}; the samples carry no images (`images`)",
            format_count(*params),
            if *quantized { "their linears stored 4-bit with the base's" } else { "in 16 bits" }
        ),
        W::VisionImages { images, w, h, patches, tokens, training, quantized } => format!(
            "each sample's {images} image(s) reach the vision tower at {w}×{h} px: {patches} patches each through its blocks, {tokens} visual tokens each inside seq; the tower is {}{}",
            match training {
                TowerTraining::Frozen => "frozen (its forward keeps nothing for backward)",
                TowerTraining::Lora => "trained through LoRA adapters (its blocks keep their activations for backward)",
                TowerTraining::Full => "trained in full (gradients and optimizer states for every tower parameter)",
            },
            if *quantized { ", its linears stored 4-bit" } else { "" }
        ),
        W::PcieShardedCheapest { gpus, gpu } => format!(
            "The cheapest offer shards a full fine-tune over {gpus} PCIe-connected {gpu} GPUs; every step moves the weights over PCIe. An NVLink node (H100/H200/A100 SXM) is much faster per step."
        ),
        W::PcieShardedSome => "Some of the cheapest offers shard a full fine-tune over PCIe-only GPUs; full fine-tuning of large models needs NVLink nodes.".into(),
        W::ConsumerMultiGpu { gpus } => format!(
            "{gpus} consumer cards: GDDR cards suit small models and QLoRA on one card; once a job needs several, PCIe communication and the lack of NVLink make them a poor choice."
        ),
        W::HourlyBilling { provider, hours, billed_hours, idle_percent, runs } => format!(
            "{provider} bills by the hour: a {} run is billed as {billed_hours:.0} h ({idle_percent:.0} % paid idle){}. Per-second billing suits short, repeated experiments.",
            hours_en(*hours),
            if *runs > 1 { format!(", on each of {runs} runs") } else { String::new() }
        ),
        W::BillingAssumed { provider } => format!(
            "{provider}'s billing rule was not verified; hourly rounding is assumed so the cost is not understated."
        ),
        W::LowConfidencePrice { offer, snapshot } => format!(
            "The cheapest price ({offer}) is low confidence in the dataset (single or estimated source, snapshot {snapshot}); check it before renting."
        ),
        W::NoBf16 { gpu } => format!("{gpu} has no BF16: the time assumes fp16 mixed precision."),
        W::PriceOverrideUnmatched { gpus, gpu, provider } => format!(
            "Your price for {gpus}× {gpu} at {provider} matches no offer in the dataset; add it as a custom offer to rank it."
        ),
        W::ExtrasChangeWinner { by_price, by_price_usd, winner, winner_usd, currency } => format!(
            "Billing rounding, idle time, storage and egress change the cheapest offer: by price × time alone {} would win, but it costs {} in all against {} for {}.",
            offer_en(by_price),
            money(*by_price_usd, *currency),
            money(*winner_usd, *currency),
            offer_en(winner)
        ),
        W::RecNoneFits => "No offer fits this configuration as it is; choose your GPU to see the changes that make it fit, each with its figure.".into(),
        W::RecCheapest { gpus, gpu, provider, pricing, usd_total, usd_per_run, hours, currency } => format!(
            "Cheapest: {gpus}× {gpu} at {provider} ({pricing}), {} in total, {} per run of {}.",
            money(*usd_total, *currency),
            money(*usd_per_run, *currency),
            hours_en(*hours)
        ),
        W::RecFastest { gpus, gpu, provider, hours, usd_total, currency } => {
            format!("Fastest: {gpus}× {gpu} at {provider}, {} per run for {}.", hours_en(*hours), money(*usd_total, *currency))
        }
        W::RecSingleGpu => "For LoRA and QLoRA a single GPU with enough memory is usually best: no communication, no sharding overhead.".into(),
        W::RecSingleGpuFits => {
            "A single large-memory GPU also fits this adapter job and avoids all communication.".into()
        }
        W::RecOlderCard { gpu, year } => format!(
            "An older card with plenty of memory ({gpu}, {year}) gives the best price per result here: adapters need memory more than peak speed."
        ),
        W::RecNvlink => "Full fine-tuning of large models needs multi-GPU nodes with NVLink.".into(),
        W::RecSpotPays { interval_min } => format!(
            "Spot pays off here with checkpoints every {interval_min:.0} min: an interruption costs on average half an interval plus a restart."
        ),
        W::RecSpotNo { interval_min } => format!(
            "Spot does not pay off with checkpoints every {interval_min:.0} min; checkpoint more often to make interruptions cheap."
        ),
    }
}

pub(super) fn russian(w: &Warning) -> String {
    use Warning as W;
    match w {
        W::FrameworkMethod { framework, method } => format!(
            "в {framework} нет рецепта {}; оценка предполагает реализацию как в PEFT",
            method_ru(*method)
        ),
        W::FrameworkMultiGpu => {
            "unsloth (открытая версия) обучает на одном GPU; несколько GPU и шардирование не поддерживаются".into()
        }
        W::FrameworkPrecision { framework, precision } => framework_precision_ru(*framework, *precision),
        W::QloraZero3Offload => "QLoRA с выгрузкой параметров ZeRO-3: DeepSpeed не умеет выгружать 4-битные веса bitsandbytes; ждите ошибки или отсутствия экономии".into(),
        W::AxolotlFp32Modules => "axolotl при attn=sdpa или eager обучает таблицу токенов, выходной слой и нормализации в fp32 (до 8 байт больше на каждый их параметр, и остаточный поток в fp32), чего оценка не учитывает; attn=flash этого избегает".into(),
        W::FrameworkImageEncoder { framework } => format!("{framework} обучает языковые модели: этот энкодер изображений всё равно оценён с ядрами и умолчаниями его профиля, которые его код к ViT может не применять (Trainer transformers: framework=hf)"),
        W::FrameworkQuant { quant } => {
            format!("QLoRA в torchtune использует только NF4 из torchao; quant={quant} недоступен")
        }
        W::PagedOptimizer => "состояния страничного оптимизатора лежат в управляемой памяти CUDA: их нет в allocated/reserved у torch, они видны в nvidia-smi и при нехватке памяти могут вытесняться в ОЗУ хоста".into(),
        W::ShardOneGpu => "шардирование по одному data-parallel рангу ничего не экономит".into(),
        W::OffloadNeedsSharding => "выгрузке оптимизатора нужен DeepSpeed ZeRO или FSDP (shard=zero1..3/fsdp); в оценке она всё равно учтена".into(),
        W::OffloadNeedsZero3 => "выгрузке параметров нужен ZeRO-3 или полный шард FSDP (shard=zero3|fsdp)".into(),
        W::InferredArchitecture { layers, hidden, ffn, vocab } => format!(
            "архитектура угадана по числу параметров: слоёв {layers}, hidden {hidden}, ffn {ffn}, словарь {vocab}; для точных цифр задайте model= или ключи архитектуры"
        ),
        W::FrozenVisionTower { params, quantized } => format!(
            "чекпойнт загружает энкодер изображений и проектор ({} параметров) вместе с языковой моделью: они входят в веса, заморожены, {}; изображений в примерах нет (`images`)",
            format_count(*params),
            if *quantized { "их линейные слои хранятся в 4 битах вместе с основой" } else { "в 16 битах" }
        ),
        W::VisionImages { images, w, h, patches, tokens, training, quantized } => format!(
            "{images} изобр. каждого примера попадают в энкодер изображений как {w}×{h} px: по {patches} патчей через его блоки и по {tokens} визуальных токенов внутри seq; энкодер {}{}",
            match training {
                TowerTraining::Frozen => "заморожен (его прямой проход ничего не хранит для обратного)",
                TowerTraining::Lora => "обучается через адаптеры LoRA (его блоки хранят активации для обратного прохода)",
                TowerTraining::Full => "обучается полностью (градиенты и состояния оптимизатора для каждого его параметра)",
            },
            if *quantized { ", его линейные слои хранятся в 4 битах" } else { "" }
        ),
        W::PcieShardedCheapest { gpus, gpu } => format!(
            "Самое дешёвое предложение шардирует полное дообучение по {gpus} GPU {gpu}, связанным только через PCIe; каждый шаг гоняет веса по PCIe. Узел с NVLink (H100/H200/A100 SXM) намного быстрее на шаг."
        ),
        W::PcieShardedSome => "Некоторые из самых дешёвых предложений шардируют полное дообучение по GPU, связанным только через PCIe; полному дообучению больших моделей нужны узлы с NVLink.".into(),
        W::ConsumerMultiGpu { gpus } => format!(
            "Потребительских карт: {gpus}. Карты с GDDR хороши для небольших моделей и QLoRA на одной карте; когда задаче нужно несколько, обмен по PCIe и отсутствие NVLink делают их плохим выбором."
        ),
        W::HourlyBilling { provider, hours, billed_hours, idle_percent, runs } => format!(
            "{provider} берёт плату за каждый начатый час: запуск длиной {} оплачивается как {billed_hours:.0} ч ({idle_percent:.0} % оплачено впустую){}. Для коротких повторяющихся экспериментов лучше посекундная оплата.",
            hours_ru(*hours),
            // «из 21 запуска», «из 3 запусков»: the genitive after «из».
            if *runs > 1 {
                format!(", и так в каждом из {runs} {}", plural_ru((*runs).into(), "запуска", "запусков", "запусков"))
            } else {
                String::new()
            }
        ),
        W::BillingAssumed { provider } => format!(
            "Правило тарификации {provider} не проверено; принято округление до часа, чтобы не занизить стоимость."
        ),
        W::LowConfidencePrice { offer, snapshot } => format!(
            "Самая низкая цена ({offer}) в наборе данных ненадёжна (один или оценочный источник, срез {snapshot}); проверьте её перед арендой."
        ),
        W::NoBf16 { gpu } => format!("У {gpu} нет BF16: время посчитано для смешанной точности fp16."),
        W::PriceOverrideUnmatched { gpus, gpu, provider } => format!(
            "Вашей цене для {gpus}× {gpu} у {provider} не соответствует ни одно предложение из набора данных; добавьте её как своё предложение (custom), чтобы оно попало в рейтинг."
        ),
        W::ExtrasChangeWinner { by_price, by_price_usd, winner, winner_usd, currency } => format!(
            "Округление тарификации, простой, хранение и исходящий трафик меняют самое дешёвое предложение: по цене × времени выиграло бы {}, но всего оно стоит {} против {} за {}.",
            offer_ru(by_price),
            money_ru(*by_price_usd, *currency),
            money_ru(*winner_usd, *currency),
            offer_ru(winner)
        ),
        W::RecNoneFits => "Ни одно предложение не вмещает эту конфигурацию как есть; выберите свой GPU, чтобы увидеть изменения, с которыми она поместится, и их цифры.".into(),
        W::RecCheapest { gpus, gpu, provider, pricing, usd_total, usd_per_run, hours, currency } => format!(
            "Дешевле всего: {gpus}× {gpu} у {provider} ({}), всего {}, {} за запуск длиной {}.",
            pricing_ru(pricing),
            money_ru(*usd_total, *currency),
            money_ru(*usd_per_run, *currency),
            hours_ru(*hours)
        ),
        W::RecFastest { gpus, gpu, provider, hours, usd_total, currency } => format!(
            "Быстрее всего: {gpus}× {gpu} у {provider}, {} на запуск за {}.",
            hours_ru(*hours),
            money_ru(*usd_total, *currency)
        ),
        W::RecSingleGpu => "Для LoRA и QLoRA обычно лучше всего один GPU с достаточной памятью: ни обмена данными, ни накладных расходов на шардирование.".into(),
        W::RecSingleGpuFits => {
            "Эта задача с адаптерами помещается и на один GPU с большой памятью, без всякого обмена данными.".into()
        }
        W::RecOlderCard { gpu, year } => format!(
            "Здесь лучшую цену за результат даёт старая карта с большой памятью ({gpu}, {year}): адаптерам память важнее пиковой скорости."
        ),
        W::RecNvlink => "Полному дообучению больших моделей нужны многопроцессорные узлы с NVLink.".into(),
        W::RecSpotPays { interval_min } => format!(
            "Spot здесь окупается при чекпоинтах каждые {interval_min:.0} мин: прерывание в среднем стоит половины интервала плюс перезапуск."
        ),
        W::RecSpotNo { interval_min } => format!(
            "Spot не окупается при чекпоинтах каждые {interval_min:.0} мин; сохраняйте чекпоинты чаще, чтобы прерывания обходились дёшево."
        ),
    }
}

/// A query value's problem in Russian, from its figures (`query::Problem`).
pub(super) fn query_problem_ru(p: &crate::query::Problem) -> String {
    use crate::query::Problem as P;
    match p {
        P::NotANumber { value, lo, hi, whole: true } => format!("«{value}» — не число; нужно целое от {lo} до {hi}"),
        P::NotANumber { value, lo, hi, whole: false } => format!("«{value}» — не число; нужно от {lo} до {hi}"),
        P::NotWhole { value, lo, hi } => format!("«{value}» — не целое число; нужно от {lo} до {hi}"),
        P::OutOfRange { value, lo, hi } => format!("{value} вне допустимого диапазона; нужно от {lo} до {hi}"),
        P::TooSmall { value, min } => {
            format!("{value} слишком мало, чтобы что-то значить; укажите 0 или не меньше {min}")
        }
        P::NotAFlag { value } => format!("«{value}» — не 0 и не 1"),
        P::BadId => "нужен идентификатор из латинских букв, цифр, «-», «_» или «.» (не длиннее 64 символов)".into(),
        P::NotACount { value, lo, hi, of, examples } => {
            let of = match of {
                crate::query::Counted::Parameters => "параметров",
                crate::query::Counted::Tokens => "токенов",
            };
            format!(
                "«{value}» — не число {of} от {} до {} (например, {examples})",
                format_count(*lo),
                format_count(*hi)
            )
        }
        P::NotOneOf { value, accepted } => format!("«{value}» — не одно из значений {accepted}"),
        P::NotAList { value, items } => format!("«{value}» — не список через запятую из {items}"),
        P::Version { value, known } => format!("версия формата «{value}» не поддерживается; эта сборка читает {known}"),
        P::UnknownKey => "неизвестный ключ; список ключей — в docs/query.md".into(),
        P::ParamsAndModel => "заданы и model, и params; берётся params, model не учитывается".into(),
    }
}

/// A JSON syntax error's problem in Russian (`json::JsonProblem`; its English is `as_str`).
pub(super) fn json_problem_ru(p: crate::json::JsonProblem) -> &'static str {
    use crate::json::JsonProblem as P;
    match p {
        P::TrailingCharacters => "лишние символы после конца JSON",
        P::EofValue => "текст оборвался, не дойдя до значения",
        P::ExpectedIdent => "неизвестное слово (в JSON есть только true, false и null)",
        P::EofList => "текст оборвался внутри массива",
        P::ExpectedCommaOrBracket => "ожидалась «,» или «]»",
        P::EofObject => "текст оборвался внутри объекта",
        P::KeyNotString => "ключ должен быть строкой в кавычках",
        P::ExpectedColon => "ожидалось «:»",
        P::ExpectedCommaOrBrace => "ожидалась «,» или «}»",
        P::ExpectedValue => "ожидалось значение",
        P::RecursionLimit => "слишком глубокая вложенность",
        P::InvalidNumber => "неверная запись числа",
        P::NumberOutOfRange => "число вне допустимого диапазона",
        P::EofString => "текст оборвался внутри строки",
        P::InvalidEscape => "неверная escape-последовательность",
        P::HexEscapeEnd => "незаконченная escape-последовательность \\u",
        P::LoneSurrogate => "одиночный суррогат в escape-последовательности \\u",
        P::ControlCharacter => "управляющий символ (\\u0000–\\u001F) внутри строки",
    }
}

/// A refusal in English (`Error`'s `Display` and JSON).
pub(super) fn refusal_en(r: &super::Refusal) -> String {
    use super::Refusal as R;
    match r {
        R::TpDividesGpus { tp, gpus } => format!("tp {tp} must divide gpus {gpus}"),
        R::Mxfp4Trains => "MXFP4 experts are frozen storage: they cannot train in full or carry LoRA adapters (PEFT wraps nn.Linear only); use expert_format=native (dequantized to 16 bits) or targets without gate, up and down".into(),
        R::OptimInBwdAccumulates { ga } => format!("the optimizer steps inside backward and frees each gradient, so gradients cannot accumulate over ga={ga} micro-batches; set ga=1 or optim_in_bwd=0"),
        R::ModelParallelDividesGpus { degree, gpus } => format!("tp × pp × cp = {degree} must divide gpus {gpus}"),
        R::StagesOverLayers { pp, layers } => format!("{pp} pipeline stages for {layers} layers"),
        R::CpDividesSeq { cp, seq } => format!("cp {cp} must divide seq {seq}"),
        R::NodesOverGpus { nodes, gpus } => format!("{nodes} nodes for {gpus} GPUs"),
        R::TpDividesHeads { tp, heads } => format!("tp {tp} must divide the {heads} attention heads"),
        R::SeqOverPositions { seq, positions } => format!("{seq} tokens exceed the model's {positions} learned positions"),
        R::TrainLayersOverLayers { train_layers, layers } => format!("{train_layers} exceeds the model's {layers} layers"),
        R::FreezeTrainsNothing => "train_layers=0 trains no block, and this model has no head that trains beside them (an image classifier's, SAM's mask decoder): train at least one layer".into(),
        R::SamRecipe { key, value } => format!("{key}={value}: SAM trains with full, freeze (train_layers=0: the mask decoder alone), lora, qlora or dora, on its 1024×1024 images, with sdpa or eager attention, on data-parallel GPUs only"),
        R::NoVisionTower { vision: false } => "this model has no vision tower: images and `tower` need a multimodal model (Qwen3-VL, Qwen2.5-VL, Qwen2-VL, Gemma 3 4B and larger)".into(),
        R::NoVisionTower { vision: true } => "this model's vision tower is not described block by block here (only its parameter count), so what its images cost is unknown; images are priced for Qwen3-VL, Qwen2.5-VL, Qwen2-VL and Gemma 3".into(),
        R::ImageUnderPatch { side, patch } => format!("an image side of {side} px is smaller than the model's {patch}-px patch: its convolution cuts no patch from it"),
        R::ImageEncoderMethod { method } => format!("method={method} is written for language models; an image encoder trains with full, freeze, lora, qlora or dora"),
        R::SpeechRecipe { key, value } => format!("{key}={value}: Whisper trains with full, freeze, lora, qlora or dora, its own loss on unpacked clips, under framework=hf (Seq2SeqTrainer) or unsloth, on data-parallel GPUs only"),
        R::ImageEncoderContextParallel { cp, tokens } => format!("cp={cp} splits long text over GPUs; no trainer splits an image's {tokens} tokens: use data parallelism (gpus)"),
        R::TowerTrainsWithout { images: 0 } => "tower=lora or tower=full trains a vision tower that sees no image: set images, or tower=frozen".into(),
        R::TowerTrainsWithout { .. } => "a trained vision tower under method=freeze needs the backward through every frozen block to reach the visual tokens, which is not modelled here: use LoRA, or tower=frozen".into(),
        R::ImagesModelParallel { tp, pp, cp } => format!(
            "images under tensor, pipeline or context parallelism (tp={tp}, pp={pp}, cp={cp}): where the vision tower runs is not modelled here; price the images with tp, pp and cp at 1 (FSDP or DeepSpeed shard the tower as the rest)"
        ),
        R::VisualTokensOverSeq { images, per_image, seq } => format!(
            "{images} image(s) of {per_image} visual tokens each do not fit in seq {seq}: the sequence holds the visual tokens and the text"
        ),
        R::BottleneckOverHidden { bottleneck, hidden } => format!("bottleneck {bottleneck} is larger than the hidden size {hidden}"),
        R::RankOverHidden { rank, hidden } => format!("rank {rank} is larger than the hidden size {hidden}"),
        R::NoTargetExists => "none of the targets exists in this architecture (a plain MLP has no gate)".into(),
        R::BeyondAddressable => "the configuration's memory is beyond 2^64 bytes".into(),
        R::ArchZero => "layers, hidden, heads, head_dim, ffn and vocab must all be at least 1".into(),
        R::KvHeadsDivideHeads { kv_heads, heads } => format!("kv_heads {kv_heads} must divide heads {heads}"),
        R::ExpertsPerToken { experts } => format!("must be from 1 to experts ({experts})"),
        R::TooManyParams { params } => format!("the architecture has about {params:.3e} parameters; at most 1e15 are supported"),
        R::DenseLayers { dense_layers, dense_ffn, layers } => format!("{dense_layers} dense blocks of width {dense_ffn} in a {layers}-block model: give at most layers blocks and a dense_ffn"),
        R::LatentAttention { head_dim } => format!("latent attention needs rope_dim below head_dim ({head_dim}), a v_dim, and kv_heads = heads"),
        R::UnknownModel { id, accepted } => format!("unknown model '{id}'; accepted: {accepted}"),
        R::UnknownProvider { id, accepted } => format!("unknown provider '{id}'; expected one of {accepted}"),
        R::UnknownGpu { id, accepted } => format!("unknown GPU id '{id}'; expected one of {accepted}"),
    }
}

/// A refusal in Russian.
pub(super) fn refusal_ru(r: &super::Refusal) -> String {
    use super::Refusal as R;
    match r {
        R::TpDividesGpus { tp, gpus } => format!("gpus {gpus} должно делиться на tp {tp}"),
        R::Mxfp4Trains => "эксперты в MXFP4 — замороженное хранение: их нельзя обучать полностью или ставить на них адаптеры LoRA (PEFT оборачивает только nn.Linear); выберите expert_format=native (распаковка в 16 бит) или targets без gate, up и down".into(),
        R::OptimInBwdAccumulates { ga } => format!("оптимизатор делает шаг внутри обратного прохода и сразу освобождает каждый градиент, поэтому градиенты нельзя накапливать за ga={ga} микробатчей; задайте ga=1 или optim_in_bwd=0"),
        R::ModelParallelDividesGpus { degree, gpus } => format!("gpus {gpus} должно делиться на tp × pp × cp = {degree}"),
        R::StagesOverLayers { pp, layers } => format!("{pp} стадий конвейера на {layers} слоёв"),
        R::CpDividesSeq { cp, seq } => format!("seq {seq} должно делиться на cp {cp}"),
        R::NodesOverGpus { nodes, gpus } => format!("{nodes} узлов на {gpus} GPU"),
        R::TpDividesHeads { tp, heads } => format!("число голов внимания {heads} должно делиться на tp {tp}"),
        R::SeqOverPositions { seq, positions } => format!("{seq} токенов больше, чем {positions} обученных позиций модели"),
        R::TrainLayersOverLayers { train_layers, layers } => format!("{train_layers} больше, чем {layers} слоёв модели"),
        R::FreezeTrainsNothing => "train_layers=0 не обучает ни одного блока, а у этой модели нет головы, которая обучается рядом с ними (классификатора изображений, декодера масок SAM): обучите хотя бы один слой".into(),
        R::SamRecipe { key, value } => format!("{key}={value}: SAM обучается методами full, freeze (train_layers=0: только декодер масок), lora, qlora или dora, на своих изображениях 1024×1024, с вниманием sdpa или eager, только параллелизмом по данным"),
        R::NoVisionTower { vision: false } => "у этой модели нет энкодера изображений: images и `tower` нужны мультимодальной модели (Qwen3-VL, Qwen2.5-VL, Qwen2-VL, Gemma 3 4B и больше)".into(),
        R::NoVisionTower { vision: true } => "энкодер изображений этой модели здесь не описан по блокам (известно лишь число параметров), поэтому цена изображений неизвестна; изображения считаются для Qwen3-VL, Qwen2.5-VL, Qwen2-VL и Gemma 3".into(),
        R::ImageUnderPatch { side, patch } => format!("сторона изображения {side} px меньше патча модели ({patch} px): её свёртка не вырезает из него ни одного патча"),
        R::ImageEncoderMethod { method } => format!("method={method} написан для языковых моделей; энкодер изображений обучается методами full, freeze, lora, qlora или dora"),
        R::SpeechRecipe { key, value } => format!("{key}={value}: Whisper обучается методами full, freeze, lora, qlora или dora, со своей функцией потерь на неупакованных записях, с framework=hf (Seq2SeqTrainer) или unsloth, только параллелизмом по данным"),
        R::ImageEncoderContextParallel { cp, tokens } => format!("cp={cp} делит длинный текст между GPU; {tokens} токенов изображения не делит ни один тренер: используйте параллелизм по данным (gpus)"),
        R::TowerTrainsWithout { images: 0 } => "tower=lora или tower=full обучает энкодер изображений, который не видит ни одного изображения: задайте images или tower=frozen".into(),
        R::TowerTrainsWithout { .. } => "обучаемому энкодеру изображений при method=freeze нужен обратный проход через все замороженные блоки до визуальных токенов, а он здесь не моделируется: используйте LoRA или tower=frozen".into(),
        R::ImagesModelParallel { tp, pp, cp } => format!(
            "изображения при тензорном, конвейерном или контекстном параллелизме (tp={tp}, pp={pp}, cp={cp}): где работает энкодер изображений, здесь не моделируется; считайте изображения с tp, pp и cp, равными 1 (FSDP или DeepSpeed шардируют энкодер вместе с остальным)"
        ),
        R::VisualTokensOverSeq { images, per_image, seq } => format!(
            "{images} изобр. по {per_image} визуальных токенов не помещаются в seq {seq}: последовательность вмещает и визуальные токены, и текст"
        ),
        R::BottleneckOverHidden { bottleneck, hidden } => format!("bottleneck {bottleneck} больше скрытого размера {hidden}"),
        R::RankOverHidden { rank, hidden } => format!("rank {rank} больше скрытого размера {hidden}"),
        R::NoTargetExists => "ни одного из targets нет в этой архитектуре (у простого MLP нет gate)".into(),
        R::BeyondAddressable => "память этой конфигурации больше 2^64 байт".into(),
        R::ArchZero => "layers, hidden, heads, head_dim, ffn и vocab должны быть не меньше 1".into(),
        R::KvHeadsDivideHeads { kv_heads, heads } => format!("heads {heads} должно делиться на kv_heads {kv_heads}"),
        R::ExpertsPerToken { experts } => format!("нужно от 1 до числа экспертов ({experts})"),
        R::TooManyParams { params } => format!("в архитектуре около {params:.3e} параметров; поддерживается не больше 1e15"),
        R::DenseLayers { dense_layers, dense_ffn, layers } => format!(
            "{dense_layers} {} шириной {dense_ffn} в модели из {layers} {}: плотных блоков может быть не больше layers, и им нужен dense_ffn",
            plural_ru(*dense_layers, "плотный блок", "плотных блока", "плотных блоков"),
            plural_ru(*layers, "блока", "блоков", "блоков")
        ),
        R::LatentAttention { head_dim } => format!("латентному вниманию нужны rope_dim меньше head_dim ({head_dim}), v_dim и kv_heads = heads"),
        R::UnknownModel { id, accepted } => format!("неизвестная модель «{id}»; допустимые: {accepted}"),
        R::UnknownProvider { id, accepted } => format!("неизвестный провайдер «{id}»; допустимые: {accepted}"),
        R::UnknownGpu { id, accepted } => format!("неизвестный GPU «{id}»; допустимые: {accepted}"),
    }
}

/// `framework-precision`: which framework loads a 16-bit model, and how.
fn framework_precision_en(framework: Framework, precision: crate::query::Precision) -> String {
    match framework {
        Framework::Axolotl => format!(
            "axolotl loads the model in 16-bit and never upcasts what trains (adapters aside); precision={precision} assumes fp32 weights: choose bf16-true (fp16-true on GPUs without bf16) to match it"
        ),
        Framework::LlamaFactory => format!(
            "llama-factory loads the model in 16-bit and upcasts only what trains; precision={precision} assumes an fp32 frozen base: choose bf16-true (fp16-true on GPUs without bf16) to match it"
        ),
        _ => format!(
            "{framework} loads the model in 16-bit; precision={precision} assumes fp32 weights: choose bf16-true (fp16-true on GPUs without bf16) to match it"
        ),
    }
}

/// `framework-precision`: which framework loads a 16-bit model, and how.
fn framework_precision_ru(framework: Framework, precision: crate::query::Precision) -> String {
    match framework {
        Framework::Axolotl => format!(
            "axolotl загружает модель в 16 битах и не переводит обучаемое в fp32 (кроме адаптеров); precision={precision} предполагает веса в fp32: выберите bf16-true (fp16-true на GPU без bf16), чтобы совпадало"
        ),
        Framework::LlamaFactory => format!(
            "llama-factory загружает модель в 16 битах и переводит в fp32 только обучаемое; precision={precision} предполагает замороженную основу в fp32: выберите bf16-true (fp16-true на GPU без bf16), чтобы совпадало"
        ),
        _ => format!(
            "{framework} загружает модель в 16 битах; precision={precision} предполагает веса в fp32: выберите bf16-true (fp16-true на GPU без bf16), чтобы совпадало"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_written_in_each_language() {
        let w = Warning::HourlyBilling {
            provider: "aws".into(),
            hours: 1.25,
            billed_hours: 2.0,
            idle_percent: 37.5,
            runs: 3,
        };
        assert!(
            english(&w).contains("a 1.2 h run is billed as 2 h (38 % paid idle), on each of 3 runs."),
            "{}",
            english(&w)
        );
        assert!(russian(&w).contains("запуск длиной 1,2 ч оплачивается как 2 ч"), "{}", russian(&w));
        assert!(russian(&w).contains("в каждом из 3 запусков"));
        let c = Warning::RecCheapest {
            gpus: 1,
            gpu: "H100 SXM".into(),
            provider: "x".into(),
            pricing: "on-demand".into(),
            usd_total: 123.4,
            usd_per_run: 1.5,
            hours: 0.5,
            currency: Currency::Usd,
        };
        assert_eq!(english(&c), "Cheapest: 1× H100 SXM at x (on-demand), $123 in total, $1.50 per run of 30 min.");
        assert!(russian(&c).contains("(по требованию)") && russian(&c).contains("30 мин"), "{}", russian(&c));
    }
}
