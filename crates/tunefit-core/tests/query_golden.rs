//! Golden v1 links: each link below must decode to exactly the state written beside it, for
//! good. A link someone shared today has to open the same calculation after any later change,
//! so the expected states are spelled out by hand (never produced by the encoder), and the
//! v1 defaults themselves are pinned field by field in `v1_defaults`: changing
//! `Query::default()` would silently change every link that omits a key.
//!
//! Adding a case is fine; editing or removing one breaks a promise to people holding links.
use tunefit_core::query::*;
use tunefit_core::Query;

/// Every field of the state a bare `v=1` link decodes to. Do not edit: it is the meaning of
/// every omitted key in every v1 link ever shared.
fn v1_defaults() -> Query {
    Query {
        format: Format::V1,
        model: Some("llama-3.1-8b".into()),
        params: None,
        arch: ArchOverrides {
            layers: None,
            hidden: None,
            heads: None,
            kv_heads: None,
            head_dim: None,
            ffn: None,
            vocab: None,
            tied: None,
            experts: None,
            experts_per_token: None,
            ..Default::default()
        },
        method: Method::Qlora,
        rank: 16,
        targets: [
            TargetModule::Q,
            TargetModule::K,
            TargetModule::V,
            TargetModule::O,
            TargetModule::Gate,
            TargetModule::Up,
            TargetModule::Down,
        ]
        .into_iter()
        .collect(),
        quant: Quant::Nf4,
        double_quant: true,
        train_layers: 2,
        bottleneck: 64,
        virtual_tokens: 20,
        lora_dropout: None,
        precision: Precision::Bf16Mixed,
        adapter_dtype: None,
        optim: Optimizer::AdamW,
        optim_impl: None,
        batch: 4,
        seq: 2048,
        ga: 1,
        images: 0,
        image_res: None,
        tower: TowerTraining::Frozen,
        tower_quant: None,
        ckpt: None,
        attn: None,
        loss: None,
        packing: None,
        compile: None,
        set_to_none: true,
        alloc: None,
        state_dict: StateDictPlacement::Host,
        act_offload: None,
        autocast: None,
        ckpt_every: 1,
        optim_in_bwd: false,
        expert_format: tunefit_core::query::ExpertFormat::Native,
        galore_rank: 128,
        need: Default::default(),
        quant_skip: Default::default(),
        framework: Framework::Hf,
        gpus: 1,
        nodes: 1,
        shard: ShardingStrategy::None,
        offload: Offload::None,
        tp: 1,
        sp: false,
        pp: 1,
        pp_chunks: 1,
        cp: 1,
        gpu: None,
        tokens: 10_000_000,
        epochs: 3.0,
        runs: 1,
        pricing: Pricing::Both,
        ckpt_interval_min: 30.0,
        interrupt_rate: None,
        mfu: None,
        mem_scale: None,
        provider: None,
        storage_gb: 100.0,
        storage_days: 0.0,
        idle_min: 0.0,
        download_gb: 0.0,
        compute: Compute::Native,
        startup_min: 5.0,
        download_gb_s: 0.5,
        save_gb_s: 0.5,
        eval_frac: 0.0,
        budget_usd: None,
        deadline_h: None,
        goal: Goal::Cheapest,
        currency: Currency::Usd,
    }
}

fn targets(ts: &[TargetModule]) -> Targets {
    ts.iter().copied().collect()
}

/// One golden case: the link, whether it is already canonical (the encoder writes exactly
/// it back), and the edits from the v1 defaults it stands for.
struct Case {
    link: &'static str,
    canonical: bool,
    expect: fn(&mut Query),
}

use TargetModule as T;

const CASES: &[Case] = &[
    Case { link: "v=1", canonical: true, expect: |_| {} },
    Case { link: "", canonical: false, expect: |_| {} },
    Case { link: "?v=1", canonical: false, expect: |_| {} },
    Case { link: "v=1&model=llama-3.1-70b", canonical: true, expect: |q| q.model = Some("llama-3.1-70b".into()) },
    Case { link: "v=1&model=Mistral-7B", canonical: false, expect: |q| q.model = Some("mistral-7b".into()) },
    Case { link: "v=1&params=7b", canonical: true, expect: |q| { q.model = None; q.params = Some(7_000_000_000); } },
    Case { link: "v=1&params=1.5b&method=full", canonical: true, expect: |q| {
        q.model = None; q.params = Some(1_500_000_000); q.method = Method::Full; } },
    Case { link: "v=1&params=350m", canonical: true, expect: |q| { q.model = None; q.params = Some(350_000_000); } },
    Case { link: "v=1&params=6738415616", canonical: true, expect: |q| { q.model = None; q.params = Some(6_738_415_616); } },
    Case { link: "v=1&model=custom&layers=24&hidden=2048&heads=16&kv_heads=8&head_dim=128&ffn=5632&vocab=32000&tied=1",
        canonical: true, expect: |q| {
            q.model = None;
            q.arch = ArchOverrides { layers: Some(24), hidden: Some(2048), heads: Some(16), kv_heads: Some(8),
                head_dim: Some(128), ffn: Some(5632), vocab: Some(32000), tied: Some(true), experts: None, experts_per_token: None, ..Default::default() };
        } },
    // A pasted DeepSeek-V3-like config: dense blocks, a shared expert, latent attention.
    Case { link: "v=1&model=custom&layers=61&hidden=7168&heads=128&kv_heads=128&head_dim=192&ffn=2048&vocab=129280&tied=0&experts=256&experts_per_token=8&dense_layers=3&dense_ffn=18432&shared_ffn=2048&q_rank=1536&kv_rank=512&rope_dim=64&v_dim=128",
        canonical: true, expect: |q| {
            q.model = None;
            q.arch = ArchOverrides { layers: Some(61), hidden: Some(7168), heads: Some(128), kv_heads: Some(128), head_dim: Some(192),
                ffn: Some(2048), vocab: Some(129280), tied: Some(false), experts: Some(256), experts_per_token: Some(8),
                dense_layers: Some(3), dense_ffn: Some(18432), shared_ffn: Some(2048), q_rank: Some(1536), kv_rank: Some(512),
                rope_dim: Some(64), v_dim: Some(128), ..Default::default() };
        } },
    // A pasted Gemma 3 config: four norms, per-head q/k norms, the SigLIP tower.
    Case { link: "v=1&model=gemma-3-4b&norms=4&qk_norm=1&vision_params=419816304", canonical: true, expect: |q| {
        q.model = Some("gemma-3-4b".into()); q.arch.norms = Some(4); q.arch.qk_norm = Some(1); q.arch.vision_params = Some(419_816_304); } },
    // torchtitan-style: per-op checkpointing of every second block, fused linear loss, torchao 4-bit AdamW.
    Case { link: "v=1&method=full&optim=adamw-4bit-ao&ckpt=op&loss=fused-linear&ckpt_every=2", canonical: true, expect: |q| {
        q.method = Method::Full; q.optim = Optimizer::AdamW4bitAo; q.ckpt = Some(Checkpointing::Op); q.loss = Some(Loss::FusedLinear); q.ckpt_every = 2; } },
    Case { link: "v=1&model=gpt-oss-20b&targets=q,k,v,o&expert_format=mxfp4", canonical: true, expect: |q| {
        q.model = Some("gpt-oss-20b".into()); q.targets = targets(&[T::Q, T::K, T::V, T::O]); q.expert_format = tunefit_core::query::ExpertFormat::Mxfp4; } },
    Case { link: "v=1&method=full&optim=galore-adamw&galore_rank=256", canonical: true, expect: |q| {
        q.method = Method::Full; q.optim = Optimizer::GaloreAdamW; q.galore_rank = 256; } },
    Case { link: "v=1&gpu=h100-sxm&need=per-second,storage,ssh,multi-node", canonical: true, expect: |q| {
        q.gpu = Some("h100-sxm".into());
        q.need = tunefit_core::query::Needs::parse("ssh,per-second,multi-node,storage").unwrap(); } },
    Case { link: "v=1&quant_skip=0.mlp,1.self_attn,2.mlp.down_proj", canonical: true, expect: |q| {
        q.quant_skip = tunefit_core::query::QuantSkip::parse("model.layers.2.mlp.down_proj,1.self_attn,0.mlp").unwrap(); } },
    Case { link: "v=1&optim_in_bwd=1&framework=torchtune", canonical: true, expect: |q| { q.optim_in_bwd = true; q.framework = Framework::Torchtune; } },
    Case { link: "v=1&layers=16&hidden=2048", canonical: false, expect: |q| {
        q.model = None; q.arch.layers = Some(16); q.arch.hidden = Some(2048); } },
    Case { link: "v=1&model=mixtral-8x7b&experts=8&experts_per_token=2&method=lora", canonical: true, expect: |q| {
        q.model = Some("mixtral-8x7b".into()); q.arch.experts = Some(8); q.arch.experts_per_token = Some(2); q.method = Method::Lora; } },
    Case { link: "v=1&model=qwen2.5-7b&tied=0", canonical: true, expect: |q| { q.model = Some("qwen2.5-7b".into()); q.arch.tied = Some(false); } },
    Case { link: "v=1&method=lora&rank=64&targets=q,v", canonical: true, expect: |q| {
        q.method = Method::Lora; q.rank = 64; q.targets = targets(&[T::Q, T::V]); } },
    Case { link: "v=1&targets=all,embed,lm_head", canonical: true, expect: |q| {
        q.targets = targets(&[T::Q, T::K, T::V, T::O, T::Gate, T::Up, T::Down, T::Embed, T::LmHead]); } },
    Case { link: "v=1&targets=q,k,v,o", canonical: true, expect: |q| q.targets = targets(&[T::Q, T::K, T::V, T::O]) },
    Case { link: "v=1&targets=gate%2Cup%2Cdown", canonical: false, expect: |q| q.targets = targets(&[T::Gate, T::Up, T::Down]) },
    Case { link: "v=1&targets=q,k,v,o,gate,up,down", canonical: false, expect: |_| {} },
    Case { link: "v=1&quant=fp4&dq=0", canonical: true, expect: |q| { q.quant = Quant::Fp4; q.double_quant = false; } },
    Case { link: "v=1&quant=int8", canonical: true, expect: |q| q.quant = Quant::Int8 },
    Case { link: "v=1&method=dora&rank=8&lora_dropout=0.05", canonical: true, expect: |q| {
        q.method = Method::Dora; q.rank = 8; q.lora_dropout = Some(0.05); } },
    Case { link: "v=1&method=freeze&train_layers=4", canonical: true, expect: |q| { q.method = Method::Freeze; q.train_layers = 4; } },
    Case { link: "v=1&method=adapter&bottleneck=128", canonical: true, expect: |q| { q.method = Method::Adapter; q.bottleneck = 128; } },
    Case { link: "v=1&method=prefix&virtual_tokens=30", canonical: true, expect: |q| { q.method = Method::Prefix; q.virtual_tokens = 30; } },
    Case { link: "v=1&method=prompt", canonical: true, expect: |q| q.method = Method::Prompt },
    Case { link: "v=1&method=full&precision=fp32&optim=sgd-momentum", canonical: true, expect: |q| {
        q.method = Method::Full; q.precision = Precision::Fp32; q.optim = Optimizer::SgdMomentum; } },
    Case { link: "v=1&precision=fp16-mixed&adapter_dtype=fp32", canonical: true, expect: |q| {
        q.precision = Precision::Fp16Mixed; q.adapter_dtype = Some(AdapterDtype::Fp32); } },
    Case { link: "v=1&method=lora&precision=bf16-true&adapter_dtype=bf16&optim=adamw-8bit", canonical: true, expect: |q| {
        q.method = Method::Lora; q.precision = Precision::Bf16True; q.adapter_dtype = Some(AdapterDtype::Bf16); q.optim = Optimizer::AdamW8bit; } },
    Case { link: "v=1&precision=fp16-true&optim=paged-adamw-8bit", canonical: true, expect: |q| {
        q.precision = Precision::Fp16True; q.optim = Optimizer::PagedAdamW8bit; } },
    Case { link: "v=1&optim=paged-adamw", canonical: true, expect: |q| q.optim = Optimizer::PagedAdamW },
    Case { link: "v=1&optim=adafactor", canonical: true, expect: |q| q.optim = Optimizer::Adafactor },
    Case { link: "v=1&method=full&optim=lion", canonical: true, expect: |q| { q.method = Method::Full; q.optim = Optimizer::Lion; } },
    Case { link: "v=1&method=full&optim=sgd", canonical: true, expect: |q| { q.method = Method::Full; q.optim = Optimizer::Sgd; } },
    Case { link: "v=1&batch=16&seq=4096&ga=8", canonical: true, expect: |q| { q.batch = 16; q.seq = 4096; q.ga = 8; } },
    Case { link: "v=1&seq=131072&ckpt=full&attn=flash&loss=chunked", canonical: true, expect: |q| {
        q.seq = 131_072; q.ckpt = Some(Checkpointing::Full); q.attn = Some(Attention::Flash); q.loss = Some(Loss::Chunked); } },
    Case { link: "v=1&ckpt=none&attn=eager&loss=standard", canonical: true, expect: |q| {
        q.ckpt = Some(Checkpointing::None); q.attn = Some(Attention::Eager); q.loss = Some(Loss::Standard); } },
    Case { link: "v=1&ckpt=selective&attn=sdpa", canonical: true, expect: |q| {
        q.ckpt = Some(Checkpointing::Selective); q.attn = Some(Attention::Sdpa); } },
    Case { link: "v=1&packing=1&compile=0", canonical: true, expect: |q| { q.packing = Some(true); q.compile = Some(false); } },
    Case { link: "v=1&set_to_none=0", canonical: true, expect: |q| { q.set_to_none = false; } },
    Case { link: "v=1&set_to_none=1", canonical: false, expect: |q| { q.set_to_none = true; } },
    Case { link: "v=1&alloc=expandable", canonical: true, expect: |q| { q.alloc = Some(AllocatorMode::Expandable); } },
    Case { link: "v=1&alloc=default", canonical: true, expect: |q| { q.alloc = Some(AllocatorMode::Default); } },
    Case { link: "v=1&state_dict=device", canonical: true, expect: |q| { q.state_dict = StateDictPlacement::Device; } },
    // The default is not written back: a link without it reads the same.
    Case { link: "v=1&state_dict=host", canonical: false, expect: |_| {} },
    Case { link: "v=1&model=qwen2.5-vl-7b&images=2&image_res=1024x768&tower=lora&tower_quant=1", canonical: true, expect: |q| {
        q.model = Some("qwen2.5-vl-7b".into()); q.images = 2; q.image_res = Some(ImageSize { w: 1024, h: 768 });
        q.tower = TowerTraining::Lora; q.tower_quant = Some(true); } },
    // A square image is written as one side; `X` reads as `x`.
    Case { link: "v=1&images=1&image_res=896X896", canonical: false, expect: |q| {
        q.images = 1; q.image_res = Some(ImageSize { w: 896, h: 896 }); } },
    Case { link: "v=1&images=1&image_res=448", canonical: true, expect: |q| {
        q.images = 1; q.image_res = Some(ImageSize { w: 448, h: 448 }); } },
    Case { link: "v=1&act_offload=1", canonical: true, expect: |q| { q.act_offload = Some(true); } },
    Case { link: "v=1&autocast=0", canonical: true, expect: |q| { q.autocast = Some(false); } },
    Case { link: "v=1&autocast=1", canonical: true, expect: |q| { q.autocast = Some(true); } },
    Case { link: "v=1&act_offload=0", canonical: true, expect: |q| { q.act_offload = Some(false); } },
    Case { link: "v=1&optim_impl=foreach", canonical: true, expect: |q| { q.optim_impl = Some(OptimizerImpl::Foreach); } },
    Case { link: "v=1&optim_impl=for-loop", canonical: true, expect: |q| { q.optim_impl = Some(OptimizerImpl::ForLoop); } },
    Case { link: "v=1&packing=true&compile=true", canonical: false, expect: |q| { q.packing = Some(true); q.compile = Some(true); } },
    Case { link: "v=1&framework=unsloth", canonical: true, expect: |q| q.framework = Framework::Unsloth },
    Case { link: "v=1&framework=torchtune", canonical: true, expect: |q| q.framework = Framework::Torchtune },
    Case { link: "v=1&framework=litgpt", canonical: true, expect: |q| q.framework = Framework::Litgpt },
    Case { link: "v=1&framework=axolotl", canonical: true, expect: |q| q.framework = Framework::Axolotl },
    Case { link: "v=1&framework=llama-factory", canonical: true, expect: |q| q.framework = Framework::LlamaFactory },
    Case { link: "v=1&model=llama-3.1-70b&method=full&gpus=8&shard=zero3&gpu=h100-sxm", canonical: true, expect: |q| {
        q.model = Some("llama-3.1-70b".into()); q.method = Method::Full; q.gpus = 8;
        q.shard = ShardingStrategy::Zero3; q.gpu = Some("h100-sxm".into()); } },
    Case { link: "v=1&method=full&gpus=16&nodes=2&shard=fsdp&tp=2", canonical: true, expect: |q| {
        q.method = Method::Full; q.gpus = 16; q.nodes = 2; q.shard = ShardingStrategy::Fsdp; q.tp = 2; } },
    Case { link: "v=1&gpus=2&shard=zero1", canonical: true, expect: |q| { q.gpus = 2; q.shard = ShardingStrategy::Zero1; } },
    Case { link: "v=1&gpus=4&shard=zero2&offload=optimizer", canonical: true, expect: |q| {
        q.gpus = 4; q.shard = ShardingStrategy::Zero2; q.offload = Offload::Optimizer; } },
    Case { link: "v=1&shard=zero3&offload=all", canonical: true, expect: |q| { q.shard = ShardingStrategy::Zero3; q.offload = Offload::All; } },
    Case { link: "v=1&gpu=rtx-4090", canonical: true, expect: |q| q.gpu = Some("rtx-4090".into()) },
    Case { link: "v=1&tokens=2.5b&epochs=1.5&runs=4", canonical: true, expect: |q| {
        q.tokens = 2_500_000_000; q.epochs = 1.5; q.runs = 4; } },
    Case { link: "v=1&tokens=50000", canonical: false, expect: |q| q.tokens = 50_000 },
    Case { link: "v=1&tokens=123456789", canonical: true, expect: |q| q.tokens = 123_456_789 },
    Case { link: "v=1&pricing=spot&ckpt_interval_min=10&interrupt_rate=0.25", canonical: true, expect: |q| {
        q.pricing = Pricing::Spot; q.ckpt_interval_min = 10.0; q.interrupt_rate = Some(0.25); } },
    Case { link: "v=1&pricing=on-demand&provider=lambda", canonical: true, expect: |q| {
        q.pricing = Pricing::OnDemand; q.provider = Some("lambda".into()); } },
    Case { link: "v=1&mfu=0.45&storage_gb=500", canonical: true, expect: |q| { q.mfu = Some(0.45); q.storage_gb = 500.0; } },
    Case { link: "v=1&mem_scale=1.12", canonical: true, expect: |q| { q.mem_scale = Some(1.12); } },
    Case { link: "v=1&storage_gb=0", canonical: true, expect: |q| q.storage_gb = 0.0 },
    Case { link: "v=1&storage_days=30&idle_min=15&download_gb=120.5", canonical: true, expect: |q| {
        q.storage_days = 30.0; q.idle_min = 15.0; q.download_gb = 120.5; } },
    Case { link: "v=1&batch=8&batch=2", canonical: false, expect: |q| q.batch = 2 },
    Case { link: "batch=1e1&seq=4096.0", canonical: false, expect: |q| { q.batch = 10; q.seq = 4096; } },
    Case { link: "v=1&provider=RunPod&gpu=A100-80GB", canonical: false, expect: |q| {
        q.provider = Some("runpod".into()); q.gpu = Some("a100-80gb".into()); } },
    Case { link: "v=1&model=gemma-2-9b&method=qlora&quant=nf4&dq=1", canonical: false, expect: |q| q.model = Some("gemma-2-9b".into()) },
    Case { link: "v=1&model=llama-3.1-8b&layers=8", canonical: true, expect: |q| q.arch.layers = Some(8) },
    Case { link: "v=1&method=full&gpus=64&nodes=8&tp=4&sp=1&pp=2&pp_chunks=2&cp=2&compute=fp8", canonical: true, expect: |q| {
        q.method = Method::Full; q.gpus = 64; q.nodes = 8; q.tp = 4; q.sp = true; q.pp = 2; q.pp_chunks = 2; q.cp = 2;
        q.compute = Compute::Fp8; } },
    Case { link: "v=1&budget_usd=50&deadline_h=12.5&goal=quality", canonical: true, expect: |q| {
        q.budget_usd = Some(50.0); q.deadline_h = Some(12.5); q.goal = Goal::Quality; } },
    Case { link: "v=1&provider=runpod&currency=eur", canonical: true, expect: |q| {
        q.provider = Some("runpod".into()); q.currency = Currency::Eur; } },
    Case { link: "v=1&compute=fp8-block&startup_min=12&download_gb_s=0.1&save_gb_s=2&eval_frac=0.05", canonical: true, expect: |q| {
        q.compute = Compute::Fp8Block; q.startup_min = 12.0; q.download_gb_s = 0.1; q.save_gb_s = 2.0; q.eval_frac = 0.05; } },
];

#[test]
fn enough_cases_and_every_key_is_covered() {
    assert!(CASES.len() >= 30, "{} cases", CASES.len());
    let mut seen: Vec<&str> = Vec::new();
    for c in CASES {
        for pair in c.link.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            seen.push(pair.split('=').next().unwrap());
        }
    }
    let missing: Vec<&&str> = KEYS.iter().filter(|k| !seen.contains(k)).collect();
    assert!(missing.is_empty(), "keys without a golden link: {missing:?}");
}

#[test]
fn bare_v1_is_the_pinned_defaults() {
    assert_eq!(
        Query::defaults(Format::V1),
        v1_defaults(),
        "Query::defaults(V1) changed: every v1 link that omits a key would change meaning"
    );
    assert_eq!(Query::parse("v=1").unwrap(), v1_defaults());
}

/// Every field of the state a bare `v=2` link decodes to: v=1's but for the precision (and
/// the hf profile's checkpointing, which lives in `framework::resolve`). Do not edit.
fn v2_defaults() -> Query {
    Query { format: Format::V2, precision: Precision::Bf16True, ..v1_defaults() }
}

#[test]
fn bare_v2_is_the_pinned_current_defaults() {
    assert_eq!(Query::default(), v2_defaults(), "Query::default() changed: every v2 link would change meaning");
    assert_eq!(Query::parse("v=2").unwrap(), v2_defaults());
    assert_eq!(Query::default().to_query_string(), "v=2");
}

/// Golden v2 links, as the v1 ones above: never edit or remove one.
const V2_CASES: &[Case] = &[
    Case { link: "v=2&currency=rub", canonical: true, expect: |q| q.currency = Currency::Rub },
    Case {
        link: "v=2&precision=bf16-mixed&ckpt=none",
        canonical: true,
        expect: |q| {
            q.precision = Precision::Bf16Mixed;
            q.ckpt = Some(Checkpointing::None);
        },
    },
    Case {
        link: "v=2&model=qwen3-8b&method=lora&rank=32",
        canonical: true,
        expect: |q| {
            q.model = Some("qwen3-8b".into());
            q.method = Method::Lora;
            q.rank = 32;
        },
    },
    Case {
        link: "v=2&method=full&framework=torchtune&gpus=8&shard=fsdp",
        canonical: true,
        expect: |q| {
            q.framework = Framework::Torchtune;
            q.method = Method::Full;
            q.gpus = 8;
            q.shard = ShardingStrategy::Fsdp;
        },
    },
    Case { link: "batch=2&v=2", canonical: false, expect: |q| q.batch = 2 },
];

#[test]
fn every_golden_v2_link_decodes_to_its_state_and_back() {
    decode_to_their_states(V2_CASES, v2_defaults);
    for c in V2_CASES.iter().filter(|c| c.canonical) {
        assert_eq!(Query::parse(c.link).unwrap().to_query_string(), c.link);
    }
}

/// Each case's link decodes to `defaults` with the case's edits.
fn decode_to_their_states(cases: &[Case], defaults: fn() -> Query) {
    for c in cases {
        let mut want = defaults();
        (c.expect)(&mut want);
        let got = Query::parse(c.link).unwrap_or_else(|e| panic!("{}: {e}", c.link));
        assert_eq!(got, want, "link {:?}", c.link);
    }
}

#[test]
fn a_v1_link_is_written_back_as_v1() {
    // A page opened from a v1 link keeps writing v1 links: the omitted keys keep their meaning.
    let q = Query::parse("v=1&method=lora").unwrap();
    assert_eq!(q.to_query_string(), "v=1&method=lora");
    assert_eq!(q.precision, Precision::Bf16Mixed);
    // Without a `v`, a link is v1, the empty one too.
    assert_eq!(Query::parse("method=lora").unwrap(), q);
    assert_eq!(Query::parse("").unwrap(), v1_defaults());
    // A bad `v` beside a good one is reported and changes nothing: the state and its defaults
    // stay in one version.
    let (q2, errs) = Query::parse_lenient("v=1&v=9&method=lora");
    assert_eq!((q2, errs.len(), errs[0].key.as_str()), (q, 1, "v"));
}

#[test]
fn every_golden_link_decodes_to_its_state() {
    decode_to_their_states(CASES, v1_defaults);
}

#[test]
fn canonical_links_are_written_back_exactly() {
    for c in CASES.iter().filter(|c| c.canonical) {
        let q = Query::parse(c.link).unwrap();
        assert_eq!(q.to_query_string(), c.link);
    }
}

#[test]
fn canonical_form_is_short_versioned_and_stable() {
    for c in CASES {
        let q = Query::parse(c.link).unwrap();
        let s = q.to_query_string();
        assert!(s == "v=1" || s.starts_with("v=1&"), "{s}");
        // Defaults are left out: dropping any one key changes the decoded state.
        let pairs: Vec<&str> = s.split('&').collect();
        for i in 1..pairs.len() {
            // `model=custom` is kept for readability even where architecture fields imply it.
            if pairs[i] == "model=custom" {
                continue;
            }
            let without: Vec<&str> = pairs.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, p)| *p).collect();
            let q2 = Query::parse(&without.join("&")).unwrap();
            assert_ne!(q2, q, "{} in {s} is redundant", pairs[i]);
        }
        // Readable: no percent escapes for the values the format itself produces.
        assert!(!s.contains('%'), "{s}");
        assert_eq!(Query::parse(&s).unwrap(), q, "{s}");
    }
}

#[test]
fn a_link_from_a_later_version_is_refused_by_name() {
    let (_, errs) = Query::parse_lenient("v=3&batch=8");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].key, "v");
}

#[test]
fn model_custom_decodes_to_no_preset() {
    // The encoder writes an architecture-only model as model=custom; it must come back as None.
    let q = Query::parse("v=1&model=custom&layers=4").unwrap();
    assert_eq!(q.model, None);
    assert_eq!(Query::parse(&q.to_query_string()).unwrap(), q);
}

#[test]
fn decimals_below_a_billionth_are_refused_so_links_decode_to_themselves() {
    // A 17-digit value near 1e-92 spelled out decodes to a neighbouring double: refused.
    let (q, errs) = Query::parse_lenient("lora_dropout=2200e-95&batch=8");
    assert_eq!((errs.len(), errs[0].key.as_str()), (1, "lora_dropout"));
    assert_eq!((q.lora_dropout, q.batch), (None, 8));
    assert_eq!(Query::parse("lora_dropout=0").unwrap().lora_dropout, Some(0.0));
    let tiny = Query::parse("interrupt_rate=0.0000000012345678901234567").unwrap();
    assert_eq!(Query::parse(&tiny.to_query_string()).unwrap(), tiny);
}
