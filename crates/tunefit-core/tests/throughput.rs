//! The time model against published throughput: every row of `data/throughput/*.csv` (measured
//! tokens/s per GPU with its configuration and source) is written as a query, timed, and
//! compared. The targets are the ones the model is held to: median predicted/published within
//! 0.9–1.1, at least 80 % of rows within ±25 %, and no group (GPU, framework or method) with a
//! median outside 0.75–1.33. The table in docs/accuracy.md is regenerated from the same code:
//! `TUNEFIT_WRITE_DOCS=1 cargo test -p tunefit-core --test throughput`.
use std::collections::BTreeMap;
use tunefit_core::dataset::gpu;
use tunefit_core::time::{timing, FlopShape};
use tunefit_core::{evaluate, Query};

const START: &str = "<!-- throughput-table:start -->";
/// Smallest group whose median is held to 0.75–1.33.
const MIN_GROUP: usize = 5;
const END: &str = "<!-- throughput-table:end -->";

/// One CSV line into fields (RFC 4180 quoting).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().unwrap().push(c),
        }
    }
    out
}

/// Records of a CSV text (quoted fields may span lines).
fn records(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines: Vec<String> = Vec::new();
    let mut buf = String::new();
    for l in text.lines() {
        if !buf.is_empty() {
            buf.push('\n');
        }
        buf.push_str(l);
        if buf.matches('"').count().is_multiple_of(2) {
            lines.push(std::mem::take(&mut buf));
        }
    }
    let mut it = lines.into_iter().filter(|l| !l.trim().is_empty());
    let Some(header) = it.next() else { return vec![] };
    let head = fields(&header);
    it.map(|l| head.iter().cloned().zip(fields(&l).into_iter().map(|v| v.trim().to_string())).collect()).collect()
}

struct Case {
    id: String,
    source: String,
    framework: String,
    gpu: String,
    method: String,
    query: String,
    gpus: u32,
    nodes: u32,
    published: f64,
}

fn num(r: &BTreeMap<String, String>, k: &str) -> Option<f64> {
    r.get(k).and_then(|v| v.replace('_', "").parse::<f64>().ok()).filter(|x| x.is_finite())
}

/// The query a row stands for, or why it cannot be written as one.
fn case(r: &BTreeMap<String, String>) -> Result<Case, String> {
    let id = r.get("id").cloned().unwrap_or_default();
    let g = r.get("gpu").cloned().unwrap_or_default();
    if gpu(&g).is_none() {
        return Err(format!("GPU '{g}' is not in the dataset"));
    }
    if num(r, "experts").is_some_and(|e| e > 1.0) {
        return Err(
            "mixture of experts: expert parallelism, all-to-all dispatch and grouped GEMMs are not in the time model"
                .into(),
        );
    }
    if r.get("tokens_counted").is_some_and(|t| t == "non-padding") {
        return Err(
            "unpacked batches whose tokens/s counts only non-padding tokens; the padding fraction is not published"
                .into(),
        );
    }
    match r.get("ckpt").map(String::as_str) {
        Some("selective-op") => {
            return Err(
                "torchtitan's per-op selective checkpointing (every other matmul saved) has no query value".into()
            )
        }
        Some("selective-layer") => {
            return Err("torchtitan's per-layer selective checkpointing (every other block) has no query value".into())
        }
        _ => {}
    }
    let published = num(r, "tokens_per_s_per_gpu").ok_or("no tokens/s")?;
    let gpus = num(r, "gpus").ok_or("no GPU count")? as u32;
    let nodes = num(r, "nodes").map(|n| n as u32).unwrap_or(gpus.div_ceil(8)).max(1);
    let layers = num(r, "layers").ok_or("architecture not given")? as u32;
    let hidden = num(r, "hidden").ok_or("architecture not given")? as u32;
    let heads = num(r, "heads").ok_or("architecture not given")? as u32;
    let kv = num(r, "kv_heads").map(|x| x as u32).unwrap_or(heads);
    let vocab = num(r, "vocab").ok_or("vocabulary not given")? as u32;
    let mut ffn = num(r, "ffn").ok_or("ffn not given")?;
    let model = r.get("model").map(|m| m.to_ascii_lowercase()).unwrap_or_default();
    // GPT-style MLPs (MPT, GPT-2/3) have two matrices of hidden × ffn; the query's custom
    // architecture is gated (three): 2/3 of the width gives the same parameters and FLOPs.
    if model.contains("mpt") || model.contains("gpt") && !model.contains("gpt-oss") {
        ffn = (ffn * 2.0 / 3.0).round();
    }
    let mut q = format!(
        "model=custom&layers={layers}&hidden={hidden}&heads={heads}&kv_heads={kv}&ffn={}&vocab={vocab}",
        ffn as u64
    );
    if let Some(hd) = num(r, "head_dim") {
        q += &format!("&head_dim={}", hd as u32);
    }
    if let (Some(e), Some(k)) = (num(r, "experts"), num(r, "experts_per_token")) {
        if e > 1.0 {
            q += &format!("&experts={}&experts_per_token={}", e as u32, k as u32);
        }
    }
    let framework = r.get("framework").cloned().unwrap_or_default();
    let method = r.get("method").cloned().unwrap_or_else(|| "full".into());
    q += &format!("&method={method}");
    if let Some(rank) = num(r, "rank") {
        if method != "full" {
            q += &format!("&rank={}", rank as u32);
        }
    }
    if let Some(t) = r.get("targets").filter(|t| !t.is_empty()) {
        q += &format!("&targets={t}");
    }
    if let Some(o) = r.get("optim").filter(|t| !t.is_empty()) {
        q += &format!("&optim={o}");
    }
    if let Some(o) = r.get("offload").filter(|t| !t.is_empty()) {
        q += &format!("&offload={o}");
    }
    // Published benchmarks train 16-bit models (pure bf16 or FSDP mixed precision with bf16
    // params): compute and memory in bf16.
    q += "&precision=bf16-true";
    let seq = num(r, "seq").ok_or("no sequence length")? as u32;
    let mb = num(r, "micro_batch").ok_or("no micro-batch")? as u32;
    let ga = num(r, "ga").unwrap_or(1.0).max(1.0) as u32;
    q += &format!("&batch={mb}&seq={seq}&ga={ga}&gpus={gpus}&nodes={nodes}");
    let shard = match r.get("shard").map(String::as_str) {
        Some("fsdp" | "hsdp") => "fsdp",
        Some("zero3") => "zero3",
        Some("zero2") => "zero2",
        Some("zero1") => "zero1",
        _ => "none",
    };
    if shard != "none" {
        q += &format!("&shard={shard}");
    }
    for k in ["tp", "pp", "cp"] {
        if let Some(v) = num(r, k) {
            if v > 1.0 {
                q += &format!("&{k}={}", v as u32);
            }
        }
    }
    match r.get("ckpt").map(String::as_str) {
        Some("none") => q += "&ckpt=none",
        Some("selective") => q += "&ckpt=selective",
        Some("full") => q += "&ckpt=full",
        _ => {}
    }
    match r.get("compute").map(String::as_str) {
        Some("fp8") => q += "&compute=fp8",
        Some("fp8-block" | "mxfp8") => q += "&compute=fp8-block",
        Some("fp4") => q += "&compute=fp4",
        _ => {}
    }
    match framework.as_str() {
        "torchtune" => q += "&framework=torchtune",
        "unsloth" => q += "&framework=unsloth",
        "axolotl" => q += "&framework=axolotl",
        _ => {}
    }
    // Pretraining benchmarks (llm-foundry, torchtitan, Megatron, NeMo) use flash attention.
    q += "&attn=flash";
    // NeMo/Megatron (Transformer Engine's fused LayerNorm-linear, fused RoPE and SwiGLU,
    // CUDA graphs) and torch.compile'd stacks run the elementwise chains fused: the query's
    // `compile=1` is that model.
    let fused = matches!(framework.as_str(), "nemo" | "megatron" | "other:megatron-deepspeed" | "other:llmboost")
        || r.get("notes").is_some_and(|n| n.to_ascii_lowercase().contains("compile"));
    if fused {
        q += "&compile=1";
    }
    Query::parse(&q).map_err(|e| format!("{e}"))?;
    Ok(Case {
        id,
        source: r.get("source").cloned().unwrap_or_default(),
        framework,
        gpu: g,
        method,
        query: q,
        gpus,
        nodes,
        published,
    })
}

fn predict(c: &Case) -> Result<f64, String> {
    let q = Query::parse(&c.query).map_err(|e| e.to_string())?;
    let rep = evaluate(&q).map_err(|e| e.to_string())?;
    let settings = tunefit_core::settings::Settings::resolve(&q).map_err(|e| e.to_string())?;
    let shape = FlopShape::of(&settings, rep.model.params, rep.model.trainable_params);
    let per_node = c.gpus.div_ceil(c.nodes);
    let g = gpu(&c.gpu).unwrap();
    // The published clusters join nodes with one 400 Gb/s InfiniBand/RoCE NIC per GPU.
    let t = timing(&settings, &shape, g, per_node, c.nodes, Some(50.0));
    // A figure above 80 % of the dense peak in model FLOPs is not physically credible as
    // stated (the best published runs reach 40–60 %): a unit or counting error in the source.
    let (_, peak, _) = tunefit_core::time::kernels::linear_peak(&q, g);
    let implied = c.published * t.model_flops_per_token / peak;
    if implied > 0.8 {
        return Err(format!("the published figure implies {:.0} % of the GPU's dense peak", implied * 100.0));
    }
    Ok(t.tokens_per_s / c.gpus as f64)
}

/// Cases with their predicted throughput, and the ones left out with why.
type Evaluated = (Vec<(Case, f64)>, Vec<(String, String)>);

fn all() -> Evaluated {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/throughput");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    let (mut ok, mut skipped) = (Vec::new(), Vec::new());
    for f in files {
        for r in records(&std::fs::read_to_string(&f).unwrap()) {
            let id = r.get("id").cloned().unwrap_or_default();
            match case(&r).and_then(|c| predict(&c).map(|p| (c, p))) {
                Ok(x) => ok.push(x),
                Err(e) => skipped.push((id, e)),
            }
        }
    }
    (ok, skipped)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn groups(rows: &[(Case, f64)]) -> Vec<(String, usize, f64)> {
    let mut by: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (c, p) in rows {
        let r = p / c.published;
        by.entry(format!("gpu {}", c.gpu)).or_default().push(r);
        by.entry(format!("framework {}", c.framework)).or_default().push(r);
        by.entry(format!("method {}", c.method)).or_default().push(r);
    }
    by.into_iter().map(|(k, v)| (k, v.len(), median(v))).collect()
}

fn table(rows: &[(Case, f64)], skipped: &[(String, String)]) -> String {
    let ratios: Vec<f64> = rows.iter().map(|(c, p)| p / c.published).collect();
    let within = ratios.iter().filter(|r| (0.75..=1.25).contains(*r)).count();
    let mut s = format!(
        "{} published figures timed ({} not expressible, listed below). Median tunefit/published **{:.2}**; \
        **{}** of {} ({:.0} %) within ±25 %; geometric mean {:.2}.\n\n",
        rows.len(),
        skipped.len(),
        median(ratios.clone()),
        within,
        rows.len(),
        100.0 * within as f64 / rows.len().max(1) as f64,
        (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len().max(1) as f64).exp()
    );
    s += "| group | rows | median tunefit/published |\n|---|---:|---:|\n";
    for (k, n, m) in groups(rows) {
        s += &format!("| {k} | {n} | {m:.2} |\n");
    }
    s +=
        "\n| id | GPUs | published tok/s/GPU | tunefit | ratio | query | source |\n|---|---:|---:|---:|---:|---|---|\n";
    for (c, p) in rows {
        s += &format!(
            "| {} | {}× {} | {:.0} | {:.0} | {:.2} | `{}` | {} |\n",
            c.id,
            c.gpus,
            c.gpu,
            c.published,
            p,
            p / c.published,
            c.query,
            c.source.replace('|', "/")
        );
    }
    if !skipped.is_empty() {
        s += "\nNot expressible as a query:\n\n";
        for (id, why) in skipped {
            s += &format!("- {id}: {why}\n");
        }
    }
    s
}

#[test]
fn published_throughput_is_met() {
    let (rows, skipped) = all();
    let text = table(&rows, &skipped);
    println!("{text}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/accuracy.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let (a, b) = (doc.find(START).expect("start marker"), doc.find(END).expect("end marker"));
    let fresh = format!("{}{START}\n{text}{}", &doc[..a], &doc[b..]);
    if std::env::var("TUNEFIT_WRITE_DOCS").is_ok() {
        std::fs::write(path, &fresh).unwrap();
    } else {
        assert!(fresh == doc, "docs/accuracy.md's throughput table is stale: rerun with TUNEFIT_WRITE_DOCS=1");
    }

    assert!(rows.len() >= 100, "{} rows", rows.len());
    let ratios: Vec<f64> = rows.iter().map(|(c, p)| p / c.published).collect();
    let m = median(ratios.clone());
    assert!((0.9..=1.1).contains(&m), "median ratio {m:.3}");
    let within = ratios.iter().filter(|r| (0.75..=1.25).contains(*r)).count() as f64 / ratios.len() as f64;
    assert!(within >= 0.8, "{:.0} % within ±25 %", within * 100.0);
    // A group is at least MIN_GROUP rows: fewer are one chart or one table row, not a group
    // (the table prints every group, small ones too).
    let bad: Vec<_> =
        groups(&rows).into_iter().filter(|(_, n, m)| *n >= MIN_GROUP && !(0.75..=1.33).contains(m)).collect();
    assert!(bad.is_empty(), "groups outside 0.75–1.33: {bad:?}");
}
