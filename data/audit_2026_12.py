#!/usr/bin/env python3
"""Corrections to data/providers.csv from the data audit of 2026-12-02 (the provider step of
`python3 data/pipeline.py`, run after data/derive.py).

Each correction names the page it was read from and the date of that reading (the audit's
table, shared/notes/data-audit.md §2a). The audit's corrections to offers (stale and duplicate
readings replaced by the providers' current pages, unpublished prices removed, each instance
type's own network) were folded into data/sources/pages.csv and data/pipeline.py on 2026-12-03.
Idempotent: running it again changes nothing.

    python3 data/audit_2026_12.py        # rewrites data/providers.csv
"""
import csv
import io
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# Provider id -> field replacements, with the source appended to the row's note.
PROVIDERS = {
    "hyperstack": dict(spot="yes", storage_usd_gb_month="0.07", egress_usd_gb="0.0",
                       note="per-minute billing; spot VMs published (H100 PCIe 2.00; A100 1.08; L40 0.80); "
                            "Cloud-SSD $0.000096774/GB-h = 0.07/GB-month; egress and ingress free "
                            "(hyperstack.cloud/gpu-pricing via api-evangelist nexgen-cloud read 2026-08-26)"),
    "tensordock": dict(spot="yes", note="spot (interruptible) instances documented and billed per second "
                                        "(docs.tensordock.com/virtual-machines/spot-instances via api-evangelist 2026-09); no offers captured"),
    "modal": dict(spot="yes", note="GPU functions are preemptible by default and nonpreemptible is not supported for GPUs "
                                   "(modal.com/docs/guide/preemption); serverless; no offers captured"),
    "scaleway": dict(billing="minute", billing_min_s="60", billing_verified="yes",
                     note="GPU Instances billed per minute (scaleway/docs-content PR #5727 of 2025-10); storage and egress prices unknown"),
    "crusoe": dict(storage_usd_gb_month="0.08",
                   note="persistent disk 0.08/GiB-month; shared disk 0.07 (crusoe.ai/cloud/pricing via api-evangelist read 2026-09-20); "
                        "spot listed as Contact sales; billing not verified: hourly assumed; InfiniBand clusters"),
}


def rewrite(path, fix, key=None):
    with open(path, newline="") as f:
        text = f.read()
    reader = csv.DictReader(io.StringIO(text))
    fields = list(reader.fieldnames)
    if key and key not in fields:
        fields.append(key)
    rows = fix(list(reader))
    # The bundled CSV reader takes no quoting: a value must hold no comma or quote.
    bad = [v for r in rows for v in r.values() if "," in v or '"' in v]
    assert not bad, bad
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    with open(path, "w", newline="") as f:
        f.write(buf.getvalue())
    return len(rows)


def fix_providers(rows):
    for r in rows:
        for k, v in PROVIDERS.get(r["id"], {}).items():
            r[k] = v
        if r["id"] in PROVIDERS:
            r["date"] = "2026-12"
    return rows


if __name__ == "__main__":
    p = rewrite(os.path.join(HERE, "providers.csv"), fix_providers)
    print(f"{p} providers")
