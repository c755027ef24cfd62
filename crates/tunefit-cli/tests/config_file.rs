//! `tunefit estimate --config=config.json`: a Hugging Face config sets the model.
use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tunefit")).args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

fn write(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!("tunefit-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_config_file_sets_the_model_and_the_query_the_rest() {
    // Exactly Qwen3-8B: the preset by id.
    let qwen = write(
        "qwen3.json",
        r#"{"model_type":"qwen3","hidden_size":4096,"intermediate_size":12288,"num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":false}"#,
    );
    let (ok, out, err) = run(&["estimate", "--json", &format!("--config={qwen}"), "method=lora&batch=2"]);
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["model"]["id"], "qwen3-8b");
    assert_eq!(r["model"]["params"], 8_190_735_360u64);
    assert!(r["query"].as_str().unwrap().contains("batch=2"));
    // Another shape: the architecture keys.
    let small = write(
        "small.json",
        r#"{"model_type":"llama","hidden_size":2048,"intermediate_size":5632,"num_attention_heads":32,"num_hidden_layers":22,"num_key_value_heads":8,"vocab_size":32000}"#,
    );
    let (ok, out, _) = run(&["estimate", "--json", &format!("--config={small}"), ""]);
    assert!(ok);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(r["model"]["id"].is_null() && r["query"].as_str().unwrap().contains("layers=22"), "{out}");
    // A broken config and a missing file say what is wrong and fail.
    let bad = write("bad.json", r#"{"model_type":"llama","hidden_size":64}"#);
    let (ok, _, err) = run(&["estimate", &format!("--config={bad}"), ""]);
    assert!(!ok && err.contains("num_attention_heads"), "{err}");
    let (ok, _, err) = run(&["estimate", "--config=/nonexistent/config.json", ""]);
    assert!(!ok && err.contains("reading /nonexistent/config.json"), "{err}");
}
