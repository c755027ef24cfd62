//! Fixes: offered only when the chosen GPU does not fit with the error band, never a value
//! already in force, each figure the one the changed query evaluates to, those that fit first.
use tunefit_core::report::evaluate_for_cli as evaluate;
use tunefit_core::report::{Lang, Verdict};
use tunefit_core::Query;

fn q(s: &str) -> Query {
    Query::parse(s).unwrap()
}

#[test]
fn fixes_are_re_evaluated_changes_that_fit_first() {
    let base = "model=llama-3.1-8b&method=qlora&gpu=rtx-4090";
    let r = evaluate(&q(base)).unwrap();
    assert_ne!(r.fit.as_ref().unwrap().verdict, Verdict::Fits);
    assert!(!r.fixes.is_empty());
    let first_miss = r.fixes.iter().position(|f| !f.fits).unwrap_or(r.fixes.len());
    assert!(r.fixes[first_miss..].iter().all(|f| !f.fits), "those that fit come first");
    assert!(r.fixes.iter().any(|f| f.fits), "something makes an 8B QLoRA fit a 24 GB card");
    for f in &r.fixes {
        let mut changed = q(base);
        changed.apply(&f.set).unwrap();
        assert_ne!(changed, q(base), "{} changes nothing", f.set);
        let after = evaluate(&changed).unwrap();
        assert_eq!(after.memory.device, f.device, "{}", f.set);
        assert_eq!(after.fit.unwrap().verdict == Verdict::Fits, f.fits, "{}", f.set);
    }
    // QLoRA under the hf profile already checkpoints: checkpointing is not offered again.
    assert!(
        !r.fixes.iter().any(|f| f.set.starts_with("ckpt=")),
        "{:?}",
        r.fixes.iter().map(|f| &f.set).collect::<Vec<_>>()
    );
}

#[test]
fn no_fixes_when_it_fits_or_no_gpu_is_chosen() {
    assert!(evaluate(&q("model=llama-3.2-1b&method=qlora&batch=1&seq=512&gpu=h100-sxm")).unwrap().fixes.is_empty());
    assert!(evaluate(&q("model=llama-3.1-70b&method=full")).unwrap().fixes.is_empty());
}

#[test]
fn the_page_reads_back_exactly_the_fixes_the_module_writes() {
    let query = "v=1&gpu=rtx-4090";
    let direct = evaluate(&q(query)).unwrap().fixes;
    let text = tunefit_core::report::fixes_tsv(query, Lang::En);
    assert_eq!(tunefit_core::report::read_fixes(&text), direct);
    assert!(tunefit_core::report::read_fixes("garbage\nno\ttabs").is_empty());
    assert_eq!(tunefit_core::report::fixes_tsv("batch=-1", Lang::En), "", "a bad query gives no fixes, not a panic");
    // The Russian page reads the same changes with their notes in Russian.
    let ru = tunefit_core::report::read_fixes(&tunefit_core::report::fixes_tsv(query, Lang::Ru));
    assert_eq!(ru.len(), direct.len());
    for (r, e) in ru.iter().zip(&direct) {
        assert_eq!((&r.set, r.device, r.fits), (&e.set, e.device, e.fits));
        assert!(r.note.chars().any(|c| ('а'..='я').contains(&c)), "{}", r.note);
    }
}

#[test]
fn a_fix_applied_to_the_link_is_the_change_that_was_evaluated() {
    // Two nodes of one GPU each: "more GPUs" means one node of n, and the link must say so.
    let base = "model=llama-3.1-8b&method=full&gpu=a100-80gb&gpus=2&nodes=2&shard=fsdp";
    let r = evaluate(&q(base)).unwrap();
    let more = r.fixes.iter().filter(|f| f.set.starts_with("gpus=")).collect::<Vec<_>>();
    assert!(!more.is_empty(), "{:?}", r.fixes.iter().map(|f| &f.set).collect::<Vec<_>>());
    for f in more {
        let mut changed = q(base);
        changed.apply(&f.set).unwrap();
        assert_eq!(changed.nodes, 1, "{}", f.set);
        assert_eq!(evaluate(&changed).unwrap().memory.device, f.device, "{}", f.set);
    }
}

#[test]
fn a_state_dict_gathered_on_the_gpu_is_fixed_by_gathering_it_on_the_host() {
    // 7B in fp32 over two A100 40GB: the shards and the step fit; FSDP1's default full state
    // dict at save puts the whole model on each GPU beside them, and does not.
    let base = "model=llama-2-7b&method=full&precision=fp32&optim=sgd&batch=2&seq=512&ckpt=full&gpus=2&shard=fsdp&gpu=a100-40gb&state_dict=device";
    let r = evaluate(&q(base)).unwrap();
    assert_ne!(r.fit.as_ref().unwrap().verdict, Verdict::Fits);
    let first = &r.fixes[0];
    assert_eq!((first.set.as_str(), first.fits), ("state_dict=host", true), "{:?}", r.fixes);
    assert!(first.note.contains("offload_to_cpu=True"));
    // Gathered on the host already (the default): not offered, where other fixes are.
    let host = evaluate(&q(&base.replace("gpu=a100-40gb&state_dict=device", "gpu=rtx-4090"))).unwrap();
    assert!(!host.fixes.is_empty());
    assert!(!host.fixes.iter().any(|f| f.set.starts_with("state_dict")), "{:?}", host.fixes);
    // Tensor parallelism over both GPUs leaves FSDP nothing to shard: no state dict to move.
    let tp = evaluate(&q(&base.replace("gpu=a100-40gb", "tp=2&gpu=rtx-4090"))).unwrap();
    assert!(!tp.fixes.is_empty());
    assert!(!tp.fixes.iter().any(|f| f.set.starts_with("state_dict")), "{:?}", tp.fixes);
}

#[test]
fn loading_in_16_bits_is_offered_under_autocast_not_under_deepspeed() {
    // A mixed run that does not fit: under the Trainer's autocast the fp32 model can be loaded
    // in bf16; DeepSpeed already holds it in bf16, so that change would save nothing.
    let sets = |s: &str| evaluate(&q(s)).unwrap().fixes.into_iter().map(|f| f.set).collect::<Vec<_>>();
    let base = "v=2&model=llama-2-70b&method=lora&precision=bf16-mixed&gpus=2&gpu=rtx-4090";
    assert!(sets(&format!("{base}&shard=fsdp")).iter().any(|s| s == "precision=bf16-true"));
    assert!(!sets(&format!("{base}&shard=zero3")).iter().any(|s| s.starts_with("precision=")));
}

/// The GPU table's rows are the fits of the query with each GPU chosen: a Hopper GPU's
/// cuBLAS workspaces (32 MiB a thread, memory/workspace.rs) are its own, not the query's GPU's.
#[test]
fn every_gpu_row_is_the_fit_with_that_gpu_chosen() {
    let base = "v=2&model=llama-3.1-8b&method=lora&batch=2&seq=2048";
    for own in ["", "&gpu=a100-80gb", "&gpu=h100-sxm"] {
        let rows = tunefit_core::solve::fit_every_gpu(&q(&format!("{base}{own}")), None).unwrap();
        for id in ["h100-sxm", "h200", "a100-80gb", "rtx-4090", "mi300x"] {
            let chosen = evaluate(&q(&format!("{base}&gpu={id}"))).unwrap().fit.unwrap();
            let row = rows.iter().find(|f| f.gpu == id).unwrap();
            assert_eq!(row.headroom, chosen.headroom, "{id} from ?{own}");
            assert_eq!(
                (row.max_batch, row.max_seq, row.verdict),
                (chosen.max_batch, chosen.max_seq, chosen.verdict),
                "{id} from ?{own}"
            );
        }
    }
}
