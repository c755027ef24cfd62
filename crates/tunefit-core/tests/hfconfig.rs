//! config.json parsing per family, unknown fields, missing fields.
use tunefit_core::catalog::preset;
use tunefit_core::hfconfig::{parse, to_query_fragment, ConfigError};
use tunefit_core::Query;

fn count(json: &str) -> u64 {
    parse(json).unwrap().param_count()
}

#[test]
fn llama_3_1_8b_config() {
    let j = r#"{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,"intermediate_size":14336,
      "num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256,"rope_theta":500000.0,
      "rope_scaling":{"factor":8.0,"rope_type":"llama3"},"tie_word_embeddings":false,"torch_dtype":"bfloat16","some_new_field":[1,2]}"#;
    assert_eq!(count(j), 8_030_261_248);
}

#[test]
fn families_reproduce_their_presets() {
    let cases = [
        (
            r#"{"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":32000}"#,
            "mistral-7b",
        ),
        (
            r#"{"model_type":"mixtral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":32000,"num_local_experts":8,"num_experts_per_tok":2}"#,
            "mixtral-8x7b",
        ),
        (
            r#"{"model_type":"qwen2","hidden_size":896,"intermediate_size":4864,"num_attention_heads":14,"num_hidden_layers":24,"num_key_value_heads":2,"vocab_size":151936,"tie_word_embeddings":true}"#,
            "qwen2.5-0.5b",
        ),
        (
            r#"{"model_type":"gemma2","hidden_size":2304,"intermediate_size":9216,"num_attention_heads":8,"num_hidden_layers":26,"num_key_value_heads":4,"head_dim":256,"vocab_size":256000}"#,
            "gemma-2-2b",
        ),
        (
            r#"{"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":32064}"#,
            "phi-3-mini",
        ),
        (
            r#"{"model_type":"phi","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":24,"vocab_size":51200}"#,
            "phi-1.5",
        ),
        (
            r#"{"model_type":"gpt2","n_embd":768,"n_head":12,"n_layer":12,"n_positions":1024,"vocab_size":50257,"n_inner":null}"#,
            "gpt2",
        ),
        (
            r#"{"model_type":"bert","hidden_size":1024,"intermediate_size":4096,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":30522,"max_position_embeddings":512,"type_vocab_size":2}"#,
            "bert-large-uncased",
        ),
    ];
    for (j, id) in cases {
        assert_eq!(count(j), preset(id).unwrap().published, "{id}");
    }
}

#[test]
fn missing_field_is_named() {
    let e = parse(r#"{"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":32000}"#).unwrap_err();
    assert_eq!(e, ConfigError::Missing { field: "intermediate_size".into() });
    assert!(e.to_string().contains("intermediate_size"));
    let e = parse(r#"{"hidden_size":1}"#).unwrap_err();
    assert_eq!(e, ConfigError::Missing { field: "model_type".into() });
    assert!(matches!(parse("[1,2"), Err(ConfigError::NotJson(_))));
    assert!(matches!(parse(r#"{"model_type":"t5"}"#), Err(ConfigError::UnsupportedFamily(_))));
    assert!(matches!(parse(r#"{"model_type":"llama","hidden_size":-4}"#), Err(ConfigError::Invalid { .. })));
}

#[test]
fn pasted_config_becomes_query_keys() {
    let a = parse(r#"{"model_type":"llama","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":16,"num_key_value_heads":8,"vocab_size":128256,"tie_word_embeddings":true,"head_dim":64}"#).unwrap();
    let frag = to_query_fragment(&a);
    assert!(frag.contains("layers=16") && frag.contains("kv_heads=8") && frag.contains("tied=1"), "{frag}");
    let q = Query::parse(&frag).unwrap();
    let r = tunefit_core::evaluate(&q).unwrap();
    assert_eq!(r.model.params, 1_235_814_400);
}

/// config.json files as the checkpoints publish them (fields transcribed from the Hub copies
/// quoted in litgpt `config.py`, TensorRT-LLM tests and the DeepSeek-V3 repository; the
/// multimodal ones leave out what their config classes default).
#[test]
fn late_2026_families_reproduce_their_presets() {
    let cases = [
        (
            r#"{"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","hidden_size":4096,"intermediate_size":12288,"num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":false,"attention_bias":false}"#,
            "qwen3-8b",
        ),
        (
            r#"{"model_type":"qwen3","hidden_size":1024,"intermediate_size":3072,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":true}"#,
            "qwen3-0.6b",
        ),
        (
            r#"{"model_type":"qwen3_moe","hidden_size":2048,"intermediate_size":6144,"moe_intermediate_size":768,"num_attention_heads":32,"num_hidden_layers":48,"num_key_value_heads":4,"head_dim":128,"num_experts":128,"num_experts_per_tok":8,"decoder_sparse_step":1,"mlp_only_layers":[],"vocab_size":151936,"tie_word_embeddings":false}"#,
            "qwen3-30b-a3b",
        ),
        (
            r#"{"model_type":"gemma3_text","hidden_size":1152,"intermediate_size":6912,"num_attention_heads":4,"num_hidden_layers":26,"num_key_value_heads":1,"head_dim":256,"vocab_size":262144,"sliding_window":512}"#,
            "gemma-3-1b",
        ),
        (
            r#"{"architectures":["Gemma3ForConditionalGeneration"],"boi_token_index":255999,"image_token_index":262144,"mm_tokens_per_image":256,"model_type":"gemma3",
            "text_config":{"hidden_size":2560,"intermediate_size":10240,"model_type":"gemma3_text","num_hidden_layers":34,"rope_scaling":{"factor":8.0,"rope_type":"linear"},"sliding_window":1024},
            "vision_config":{"hidden_size":1152,"image_size":896,"intermediate_size":4304,"model_type":"siglip_vision_model","num_attention_heads":16,"num_hidden_layers":27,"patch_size":14,"vision_use_head":false}}"#,
            "gemma-3-4b",
        ),
        (
            r#"{"model_type":"gemma3","text_config":{"hidden_size":5376,"intermediate_size":21504,"model_type":"gemma3_text","num_attention_heads":32,"num_hidden_layers":62,"num_key_value_heads":16,"head_dim":128,"query_pre_attn_scalar":168},
            "vision_config":{"hidden_size":1152,"image_size":896,"intermediate_size":4304,"num_attention_heads":16,"num_hidden_layers":27,"patch_size":14}}"#,
            "gemma-3-27b",
        ),
        (
            r#"{"model_type":"llama4","text_config":{"model_type":"llama4_text","hidden_size":5120,"intermediate_size":8192,"intermediate_size_mlp":16384,"num_attention_heads":40,"num_hidden_layers":48,"num_key_value_heads":8,"head_dim":128,"num_local_experts":16,"num_experts_per_tok":1,"interleave_moe_layer_step":1,"vocab_size":202048},
            "vision_config":{"hidden_size":1408,"intermediate_size":5632,"num_hidden_layers":34,"num_attention_heads":16,"image_size":336,"patch_size":14,"pixel_shuffle_ratio":0.5,"projector_input_dim":4096,"projector_output_dim":4096,"vision_output_dim":4096}}"#,
            "llama-4-scout",
        ),
        (
            r#"{"model_type":"llama4","text_config":{"model_type":"llama4_text","hidden_size":5120,"intermediate_size":8192,"intermediate_size_mlp":16384,"num_attention_heads":40,"num_hidden_layers":48,"num_key_value_heads":8,"head_dim":128,"num_local_experts":128,"num_experts_per_tok":1,"interleave_moe_layer_step":2,"vocab_size":202048},
            "vision_config":{"hidden_size":1408,"intermediate_size":5632,"num_hidden_layers":34,"image_size":336,"patch_size":14,"projector_input_dim":4096,"projector_output_dim":4096,"vision_output_dim":4096}}"#,
            "llama-4-maverick",
        ),
        (
            r#"{"architectures":["DeepseekV3ForCausalLM"],"model_type":"deepseek_v3","hidden_size":7168,"intermediate_size":18432,"moe_intermediate_size":2048,"num_attention_heads":128,"num_key_value_heads":128,"num_hidden_layers":61,"num_nextn_predict_layers":1,
            "n_routed_experts":256,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":3,"moe_layer_freq":1,"q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"vocab_size":129280,"tie_word_embeddings":false,"topk_method":"noaux_tc"}"#,
            "deepseek-v3",
        ),
        (
            r#"{"architectures":["GptOssForCausalLM"],"model_type":"gpt_oss","hidden_size":2880,"intermediate_size":2880,"head_dim":64,"num_attention_heads":64,"num_key_value_heads":8,"num_hidden_layers":24,"num_local_experts":32,"num_experts_per_tok":4,"experts_per_token":4,"vocab_size":201088,"tie_word_embeddings":false,"quantization_config":{"quant_method":"mxfp4"}}"#,
            "gpt-oss-20b",
        ),
        (r#"{"model_type":"gpt_oss","num_hidden_layers":36,"num_local_experts":128}"#, "gpt-oss-120b"),
        (
            r#"{"model_type":"phi3","hidden_size":5120,"intermediate_size":17920,"num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":10,"vocab_size":100352,"tie_word_embeddings":false}"#,
            "phi-4",
        ),
        (
            r#"{"architectures":["Mistral3ForConditionalGeneration"],"model_type":"mistral3","multimodal_projector_bias":false,"spatial_merge_size":2,
            "text_config":{"model_type":"mistral","hidden_size":5120,"intermediate_size":32768,"num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"head_dim":128,"vocab_size":131072},
            "vision_config":{"model_type":"pixtral","hidden_size":1024,"intermediate_size":4096,"num_hidden_layers":24,"num_attention_heads":16,"head_dim":64,"patch_size":14,"image_size":1540}}"#,
            "mistral-small-3.1-24b",
        ),
        (
            r#"{"model_type":"olmo2","hidden_size":4096,"intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":100352}"#,
            "olmo-2-7b",
        ),
        (
            r#"{"model_type":"smollm3","hidden_size":2048,"intermediate_size":11008,"num_attention_heads":16,"num_hidden_layers":36,"num_key_value_heads":4,"no_rope_layer_interval":4}"#,
            "smollm3-3b",
        ),
        (
            r#"{"model_type":"qwen2","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,"tie_word_embeddings":false}"#,
            "deepseek-r1-distill-qwen-7b",
        ),
    ];
    for (j, id) in cases {
        let a = parse(j).unwrap_or_else(|e| panic!("{id}: {e}"));
        let p = preset(id).unwrap();
        assert_eq!(a.param_count(), p.published, "{id}");
        assert_eq!(a.active_params(), p.arch.active_params(), "{id} active");
    }
}

#[test]
fn moe_layer_placement_follows_the_config() {
    // Qwen3-MoE: layers in mlp_only_layers are dense, intermediate_size wide.
    let a = parse(r#"{"model_type":"qwen3_moe","hidden_size":2048,"intermediate_size":6144,"moe_intermediate_size":768,"num_attention_heads":32,"num_hidden_layers":48,"num_key_value_heads":4,"head_dim":128,"num_experts":128,"num_experts_per_tok":8,"mlp_only_layers":[0,1],"vocab_size":151936}"#).unwrap();
    assert_eq!((a.layout.dense_layers, a.layout.dense_ffn, a.moe_layers()), (2, 6144, 46));
    let e = parse(r#"{"model_type":"deepseek_v3","hidden_size":64,"intermediate_size":128,"moe_intermediate_size":32,"num_attention_heads":4,"num_hidden_layers":2,"n_routed_experts":4,"num_experts_per_tok":2,"first_k_dense_replace":3,"kv_lora_rank":16,"qk_nope_head_dim":8,"qk_rope_head_dim":8,"v_head_dim":8,"vocab_size":100}"#).unwrap_err();
    assert!(e.to_string().contains("first_k_dense_replace"), "{e}");
    // A multimodal config whose text model is of an unsupported kind names it.
    let e = parse(r#"{"model_type":"gemma3","text_config":{"model_type":"t5"}}"#).unwrap_err();
    assert!(matches!(e, ConfigError::UnsupportedFamily(ref t) if t == "t5"), "{e:?}");
}

#[test]
fn pasted_moe_and_multimodal_configs_survive_a_link() {
    // The link carries what the uniform keys cannot: dense blocks, shared expert, latent
    // attention, the vision tower.
    for id in ["deepseek-v3", "llama-4-maverick", "gemma-3-12b"] {
        let a = &preset(id).unwrap().arch;
        let frag = to_query_fragment(a);
        let q = Query::parse(&frag).unwrap_or_else(|e| panic!("{id}: {frag}: {e}"));
        let r = tunefit_core::evaluate(&q).unwrap();
        assert_eq!(r.model.params, preset(id).unwrap().published, "{id}: {frag}");
    }
    let q = Query::parse(
        "layers=4&hidden=256&heads=4&ffn=512&vocab=100&experts=4&experts_per_token=2&dense_layers=5&dense_ffn=64",
    )
    .unwrap();
    let e = tunefit_core::evaluate(&q).unwrap_err();
    assert!(e.to_string().contains("dense_layers"), "{e}");
}

#[test]
fn qwen3_next_reads_and_links_as_its_preset_only() {
    use tunefit_core::hfconfig::link_for;
    let j = r#"{"model_type":"qwen3_next","hidden_size":2048,"intermediate_size":5120,"moe_intermediate_size":512,"shared_expert_intermediate_size":512,
      "num_attention_heads":16,"num_key_value_heads":2,"head_dim":256,"num_hidden_layers":48,"num_experts":512,"num_experts_per_tok":10,
      "full_attention_interval":4,"linear_num_key_heads":16,"linear_key_head_dim":128,"linear_num_value_heads":32,"linear_value_head_dim":128,
      "linear_conv_kernel_dim":4,"vocab_size":151936,"tie_word_embeddings":false}"#;
    let a = parse(j).unwrap();
    assert_eq!(a.param_count(), preset("qwen3-next-80b-a3b").unwrap().published);
    assert_eq!(link_for(&a).unwrap(), "v=1&model=qwen3-next-80b-a3b");
    // Another hybrid shape has no keys: refused with the reason, not linked as a different model.
    let other = parse(&j.replace("\"num_hidden_layers\":48", "\"num_hidden_layers\":24")).unwrap();
    let e = link_for(&other).unwrap_err();
    assert!(e.to_string().contains("linear-attention"), "{e}");
    // A plain config that is a preset's shape links the preset too.
    let llama = parse(r#"{"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256}"#).unwrap();
    assert!(link_for(&llama).unwrap().starts_with("v=1&model=llama-3"));
}

#[test]
fn qwen_vl_configs_read_as_their_presets_tower_included() {
    // The hub's config.json shapes (transformers 4: the language model at the top level) and
    // transformers 5's (nested `text_config`); each must become the preset, tower and all, so
    // that a pasted config's link names the preset and its images can be priced.
    let cases = [
        (
            r#"{"architectures":["Qwen2_5_VLForConditionalGeneration"],"model_type":"qwen2_5_vl","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,"tie_word_embeddings":false,
            "vision_config":{"depth":32,"hidden_act":"silu","hidden_size":1280,"intermediate_size":3420,"num_heads":16,"in_chans":3,"out_hidden_size":3584,"patch_size":14,"spatial_merge_size":2,"spatial_patch_size":14,"window_size":112,"fullatt_block_indexes":[7,15,23,31],"tokens_per_second":2,"temporal_patch_size":2}}"#,
            "qwen2.5-vl-7b",
        ),
        (
            r#"{"model_type":"qwen2_5_vl","tie_word_embeddings":true,
            "text_config":{"model_type":"qwen2_5_vl_text","vocab_size":151936,"hidden_size":2048,"intermediate_size":11008,"num_hidden_layers":36,"num_attention_heads":16,"num_key_value_heads":2,"tie_word_embeddings":true},
            "vision_config":{"depth":32,"hidden_size":1280,"intermediate_size":3420,"num_heads":16,"out_hidden_size":2048,"fullatt_block_indexes":[7,15,23,31]}}"#,
            "qwen2.5-vl-3b",
        ),
        (
            r#"{"model_type":"qwen2_5_vl","hidden_size":5120,"intermediate_size":27648,"num_attention_heads":40,"num_hidden_layers":64,"num_key_value_heads":8,"vocab_size":152064,"tie_word_embeddings":false,
            "vision_config":{"depth":32,"hidden_size":1280,"intermediate_size":3456,"num_heads":16,"out_hidden_size":5120,"window_size":112,"fullatt_block_indexes":[7,15,23,31]}}"#,
            "qwen2.5-vl-32b",
        ),
        (
            r#"{"architectures":["Qwen2VLForConditionalGeneration"],"model_type":"qwen2_vl","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,"tie_word_embeddings":false,
            "vision_config":{"depth":32,"embed_dim":1280,"mlp_ratio":4,"num_heads":16,"in_chans":3,"hidden_size":3584,"patch_size":14,"spatial_merge_size":2,"temporal_patch_size":2}}"#,
            "qwen2-vl-7b",
        ),
        (
            r#"{"model_type":"qwen2_vl","hidden_size":1536,"intermediate_size":8960,"num_attention_heads":12,"num_hidden_layers":28,"num_key_value_heads":2,"vocab_size":151936,"tie_word_embeddings":true,
            "vision_config":{"depth":32,"embed_dim":1280,"mlp_ratio":4,"num_heads":16,"hidden_size":1536}}"#,
            "qwen2-vl-2b",
        ),
        (
            r#"{"architectures":["Qwen3VLForConditionalGeneration"],"model_type":"qwen3_vl","tie_word_embeddings":false,
            "text_config":{"model_type":"qwen3_vl_text","hidden_size":4096,"intermediate_size":12288,"num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936},
            "vision_config":{"model_type":"qwen3_vl","depth":27,"hidden_size":1152,"intermediate_size":4304,"num_heads":16,"out_hidden_size":4096,"patch_size":16,"spatial_merge_size":2,"temporal_patch_size":2,"num_position_embeddings":2304,"deepstack_visual_indexes":[8,16,24],"hidden_act":"gelu_pytorch_tanh","in_channels":3}}"#,
            "qwen3-vl-8b",
        ),
    ];
    for (j, id) in cases {
        let a = parse(j).unwrap_or_else(|e| panic!("{id}: {e}"));
        let p = preset(id).unwrap();
        assert_eq!(a.param_count(), p.published, "{id}");
        assert_eq!(a, p.arch, "{id}: the whole architecture, tower included");
        assert_eq!(tunefit_core::hfconfig::link_for(&a).unwrap(), format!("v=1&model={id}"));
    }
    // A tower the presets do not have: its size counts, its images are refused by name.
    let odd = r#"{"model_type":"qwen2_5_vl","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,
        "vision_config":{"depth":24,"hidden_size":1280,"intermediate_size":3420,"num_heads":16,"out_hidden_size":3584}}"#;
    let a = parse(odd).unwrap();
    assert_eq!(a.layout.tower.layers, 0);
    assert!(a.layout.vision_params > 400_000_000);
}

#[test]
fn a_config_applied_over_a_link_keeps_the_links_version_and_its_defaults() {
    // The page and `estimate --config` put a pasted config's model into the person's query:
    // the config's own link says `v=1`, which must not turn a v=2 page into v=1's defaults.
    let j = r#"{"model_type":"qwen2","hidden_size":896,"intermediate_size":4864,"num_attention_heads":14,"num_hidden_layers":24,"num_key_value_heads":2,"vocab_size":151936,"tie_word_embeddings":true}"#;
    let (_, link) = tunefit_core::hfconfig::config_link(j).unwrap();
    assert!(link.starts_with("v=1&"), "{link}");
    let mut q = Query::parse("v=2&gpu=h100-sxm&batch=4").unwrap();
    tunefit_core::hfconfig::apply_link(&mut q, &link).unwrap();
    let want =
        Query::parse(&format!("v=2&gpu=h100-sxm&batch=4&model={}", link.trim_start_matches("v=1&model="))).unwrap();
    assert_eq!(q.to_query_string(), want.to_query_string());
    assert!(q.to_query_string().starts_with("v=2"), "{}", q.to_query_string());
    // A v=1 link stays v=1.
    let mut q = Query::parse("gpu=h100-sxm").unwrap();
    tunefit_core::hfconfig::apply_link(&mut q, &link).unwrap();
    assert!(!q.to_query_string().contains("v=2"), "{}", q.to_query_string());
}
