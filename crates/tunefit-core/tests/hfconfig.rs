//! config.json parsing per family, unknown fields, missing fields.
use tunefit_core::catalog::preset;
use tunefit_core::hfconfig::{parse, to_query_fragment, ConfigError};
use tunefit_core::Query;

fn count(json: &str) -> u64 { parse(json).unwrap().param_count() }

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
        (r#"{"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":32000}"#, "mistral-7b"),
        (r#"{"model_type":"mixtral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":32000,"num_local_experts":8,"num_experts_per_tok":2}"#, "mixtral-8x7b"),
        (r#"{"model_type":"qwen2","hidden_size":896,"intermediate_size":4864,"num_attention_heads":14,"num_hidden_layers":24,"num_key_value_heads":2,"vocab_size":151936,"tie_word_embeddings":true}"#, "qwen2.5-0.5b"),
        (r#"{"model_type":"gemma2","hidden_size":2304,"intermediate_size":9216,"num_attention_heads":8,"num_hidden_layers":26,"num_key_value_heads":4,"head_dim":256,"vocab_size":256000}"#, "gemma-2-2b"),
        (r#"{"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":32064}"#, "phi-3-mini"),
        (r#"{"model_type":"phi","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":24,"vocab_size":51200}"#, "phi-1.5"),
        (r#"{"model_type":"gpt2","n_embd":768,"n_head":12,"n_layer":12,"n_positions":1024,"vocab_size":50257,"n_inner":null}"#, "gpt2"),
        (r#"{"model_type":"bert","hidden_size":1024,"intermediate_size":4096,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":30522,"max_position_embeddings":512,"type_vocab_size":2}"#, "bert-large-uncased"),
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
