#!/usr/bin/env python3
"""Corrections to data/offers.csv and data/providers.csv from the data audit of 2026-12-02.

Each correction names the page it was read from and the date of that reading (the audit's
table, shared/notes/data-audit.md §2a and §3). The rule behind them: a price the provider no
longer publishes, or a row that duplicates a newer reading, is removed or replaced by the newer
reading; a stale or duplicate row that sorts cheaper than the provider's current page must
never stand. Idempotent: running it again changes nothing.

    python3 data/audit_2026_12.py        # rewrites data/offers.csv and data/providers.csv
"""
import csv
import io
import os

HERE = os.path.dirname(os.path.abspath(__file__))

DATARECEIPTS = "datareceipts 109-gpu-pricing (runpod.io/pricing read 2026-11-09)"
CRUSOE = "crusoe.ai/cloud/pricing via api-evangelist crusoe plans (read 2026-09-20)"
HYPERSTACK = "hyperstack.cloud/gpu-pricing via api-evangelist nexgen-cloud plans (read 2026-08-26)"
AZURE = "datareceipts 109-gpu-pricing hyperscalers.json (Azure retail prices read 2026-11-09)"
SILYBENCH_NEBIUS = "silybench-data gpu_prices.csv (nebius.com/prices read 2026-09-25)"

# Rows to remove: (offer id, start of the row's source), so that a row which later takes the
# removed one's id is never removed by a second run.
REMOVE = [
    # RunPod Secure: 3.29 (H100 SXM) and 1.39 (A100 PCIe) are catalog readings duplicating the
    # transcribed page rows, whose prices the November page raised (below).
    ("runpod-secure/h100-sxm/1", "skypilot-catalog"),
    ("runpod-secure/a100-pcie-80gb/1", "skypilot-catalog"),
    ("runpod-secure/a100-pcie-80gb/2", "skypilot-catalog"),
    # Nebius: the SkyPilot catalog's 2.95 (H100) and 3.50 (H200) per GPU predate nebius.com's
    # 3.85 and 4.50, which the data holds as separate rows.
    ("nebius/h100-sxm/1", "skypilot-catalog"),
    ("nebius/h200/1", "skypilot-catalog"),
    # Crusoe: B200 is "Contact sales" (no public price); A100 40GB and A40 are no longer listed.
    ("crusoe/b200/1", ""), ("crusoe/b200/8", ""),
    ("crusoe/a100-40gb/1", ""), ("crusoe/a100-40gb/8", ""),
    ("crusoe/a40/1", ""), ("crusoe/a40/8", ""),
    # Hyperstack: the page's "H100 NVLink" 2.60 row duplicates the H100 PCIe offer (2.50 below).
    ("hyperstack/h100-pcie/1-2", ""),
]
PER_GPU = {
    # (id prefix without count) -> (per-GPU on-demand, source, date)
    "runpod-secure/h100-sxm": (3.99, DATARECEIPTS, "2026-11-09"),
    "runpod-secure/a100-80gb": (1.79, DATARECEIPTS, "2026-11-09"),
    "runpod-secure/a100-pcie-80gb": (1.79, DATARECEIPTS, "2026-11-09"),
    "crusoe/a100-80gb": (2.30, CRUSOE, "2026-09-20"),
    "crusoe/a100-pcie-80gb": (2.00, CRUSOE, "2026-09-20"),
    "crusoe/l40s": (1.50, CRUSOE, "2026-09-20"),
    "crusoe/h100-sxm": (3.90, CRUSOE, "2026-09-20"),
    "crusoe/h200": (4.29, CRUSOE, "2026-09-20"),
    "crusoe/mi300x": (3.45, CRUSOE, "2026-09-20"),
    "hyperstack/h100-sxm": (3.20, HYPERSTACK, "2026-08-26"),
    "hyperstack/h100-pcie": (2.50, HYPERSTACK, "2026-08-26"),
    "azure/h100-nvl": (8.82, AZURE, "2026-11-09"),
    # Nebius prices per GPU-hour, the same for 1 and 8 GPUs (nebius.com/prices).
    "nebius/h100-sxm": (3.85, SILYBENCH_NEBIUS, "2026-09-25"),
    "nebius/h200": (4.50, SILYBENCH_NEBIUS, "2026-09-25"),
}
# Offers for GPUs that had none, each as the audit's notes give it (shared/notes/data-audit.md
# §1c, 2026-12): one GPU per row at the published per-GPU price; no multi-GPU rows are made by
# multiplying. Akash's B300 at 6.00 (2026-09-20) is not added: Akash is not a provider here.
RUNPOD_B300 = ("privum/ai-compute-prices (runpod.io read 2026-08-19) and api-evangelist runpod plans (read 2026-10-07) "
               "via shared/notes/data-audit.md §1c")
ADD = [
    # (id, provider, gpu, per-GPU on-demand, tier, source, date, note)
    ("runpod-community/b300/1", "runpod", "b300", 6.94, "community", RUNPOD_B300, "2026-08-19",
     "per GPU-hour as published for Community Cloud; the earlier of the two readings' dates is kept"),
    ("runpod-secure/b300/1", "runpod", "b300", 7.89, "secure", RUNPOD_B300, "2026-08-19",
     "per GPU-hour as published for Secure Cloud; the earlier of the two readings' dates is kept"),
    ("hyperstack/b300/1", "hyperstack", "b300", 7.40, "", HYPERSTACK, "2026-08-26",
     "per GPU-hour as published (shared/notes/data-audit.md §1c)"),
    ("hyperstack/rtx-a4000/1", "hyperstack", "rtx-a4000", 0.15, "", HYPERSTACK, "2026-08-26",
     "per GPU-hour as published (shared/notes/data-audit.md §1c)"),
]


def add_offers(rows):
    ids = {r["id"] for r in rows}
    for oid, provider, gpu, price, tier, source, date, note in ADD:
        if oid in ids:
            continue
        row = {k: "" for k in rows[0].keys()}
        row.update(id=oid, provider=provider, gpu=gpu, count="1", on_demand_usd_h=repr(price), tier=tier,
                   source=source, snapshot_date=date, confidence="medium", note=note)
        rows.append(row)
    return rows


# Rows whose per-GPU figure holds only for one count (Azure's NC40 is 6.98 per GPU, NC80 8.82).
ONLY_COUNTS = {"azure/h100-nvl": {2}}


def offer_base(oid):
    """`runpod-secure/h100-sxm/2-2` -> (`runpod-secure/h100-sxm`, 2)."""
    head, count = oid.rsplit("/", 1)
    return head, int(count.split("-")[0])


def fix_offers(rows):
    out = []
    for r in rows:
        oid = r["id"]
        if any(oid == i and r["source"].startswith(src) for i, src in REMOVE):
            continue
        head, count = offer_base(oid)
        if head in PER_GPU and count in ONLY_COUNTS.get(head, {count}):
            price, source, date = PER_GPU[head]
            r["on_demand_usd_h"] = repr(round(price * count, 4))
            r["source"] = source
            r["snapshot_date"] = date
            r["confidence"] = "high" if source in (DATARECEIPTS, AZURE) else "medium"
            if head.startswith("crusoe/"):
                # On 2026-09-20 Crusoe's page lists spot as "Contact sales": the February
                # spot figures (gpuhunt) cannot be checked, so no spot price is offered.
                r["spot_usd_h"] = ""
            note = f"per GPU {price:.2f}/h x {count} as published on the provider's page (audit 2026-12)"
            if r["spot_usd_h"]:
                note += "; spot from the older catalog reading (not re-checked)"
            if "derived" in r["note"]:
                note = f"derived: {note}; RunPod pods price linearly in GPU count"
            r["note"] = note
        if head.startswith("lambda-via-prime-intellect/"):
            # A reseller's listing of Lambda capacity, not a price Lambda offers (Lambda's own
            # page: H100 3.99, A100 80GB 2.79 per GPU, api-evangelist lambda-labs 2026-09-20).
            r["confidence"] = "low"
            r["note"] = "reseller listing (Prime Intellect) of Lambda capacity below Lambda's own published price; not verifiable on lambda.ai"
        if oid == "gcp/h100-sxm/1":
            r["region"] = "us-central1"
        out.append(r)
    # A second reading whose first was removed takes the plain id.
    ids = {r["id"] for r in out}
    for r in out:
        if r["id"].endswith("-2") and r["id"][:-2] not in ids:
            ids.discard(r["id"])
            r["id"] = r["id"][:-2]
            ids.add(r["id"])
    return out


# The network between instances is a property of the instance type, not of the provider: a
# provider-wide figure (AWS 50 GB/s per GPU, GCP 25) holds for its flagship training instances
# only. Instance type -> network bandwidth of the whole instance in Gb/s, or None where the
# instance has no network meant for multi-node training (no InfiniBand/EFA/GPUDirect), so the
# ranking never spreads a job over several of them. `internode_gb_s` = Gb/s / 8 / GPUs.
AWS_TYPES = "aws.amazon.com/ec2/instance-types accelerated computing (Network Bandwidth column; EFA where listed)"
AZURE_TYPES = "learn.microsoft.com Azure N-series sizes (ND: InfiniBand per GPU; NC: no InfiniBand)"
GCP_TYPES = "cloud.google.com/compute/docs/gpus/gpu-network-bandwidth (A3 high: GPUDirect-TCPX; A2/G2/N1: no GPUDirect)"
INSTANCE_NETWORK = {
    # AWS: p4d/p4de 400 Gb/s EFA per node (the audit: 6.25 GB/s per GPU, not p5's 50).
    "p4d.24xlarge": (400, AWS_TYPES), "p4de.24xlarge": (400, AWS_TYPES),
    "p3dn.24xlarge": (100, AWS_TYPES), "p3.16xlarge": (25, AWS_TYPES), "p3.8xlarge": (10, AWS_TYPES), "p3.2xlarge": (10, AWS_TYPES),
    "g4dn.xlarge": (25, AWS_TYPES), "g4dn.12xlarge": (50, AWS_TYPES), "g4dn.metal": (100, AWS_TYPES),
    "g5.xlarge": (10, AWS_TYPES), "g5.2xlarge": (10, AWS_TYPES), "g5.12xlarge": (40, AWS_TYPES), "g5.48xlarge": (100, AWS_TYPES),
    "g6.xlarge": (10, AWS_TYPES), "g6.12xlarge": (40, AWS_TYPES), "g6.48xlarge": (100, AWS_TYPES),
    "g6e.xlarge": (20, AWS_TYPES), "g6e.12xlarge": (100, AWS_TYPES), "g6e.48xlarge": (400, AWS_TYPES),
    # Azure: ND v2 100 Gb/s EDR per node, ND A100 v4 200 Gb/s HDR per GPU; NC-series none.
    "ND40rs_v2": (100, AZURE_TYPES), "ND96asr_v4": (1600, AZURE_TYPES), "ND96amsr_A100_v4": (1600, AZURE_TYPES),
    "NC24ads_A100_v4": (None, AZURE_TYPES), "NC48ads_A100_v4": (None, AZURE_TYPES), "NC96ads_A100_v4": (None, AZURE_TYPES),
    "NC40ads_H100_v5": (None, AZURE_TYPES), "NC80adis_H100_v5": (None, AZURE_TYPES),
    "NC4as_T4_v3": (None, AZURE_TYPES), "NC64as_T4_v3": (None, AZURE_TYPES), "NC6s_v3": (None, AZURE_TYPES), "NC24s_v3": (None, AZURE_TYPES),
    # GCP: A3 high 8g GPUDirect-TCPX (half of A3 Mega's TCPXO, the audit); partial A3 shapes,
    # A2, G2 and N1 run NCCL over plain TCP.
    "a3-highgpu-8g": (800, GCP_TYPES), "a3-highgpu-1g": (None, GCP_TYPES), "a3-highgpu-2g": (None, GCP_TYPES), "a3-highgpu-4g": (None, GCP_TYPES),
    "a2-highgpu-1g": (24, GCP_TYPES), "a2-highgpu-2g": (32, GCP_TYPES), "a2-highgpu-4g": (50, GCP_TYPES), "a2-highgpu-8g": (100, GCP_TYPES),
    "a2-megagpu-16g": (100, GCP_TYPES), "a2-ultragpu-1g": (24, GCP_TYPES), "a2-ultragpu-2g": (32, GCP_TYPES),
    "a2-ultragpu-4g": (50, GCP_TYPES), "a2-ultragpu-8g": (100, GCP_TYPES),
    "g2-standard-4": (10, GCP_TYPES), "g2-standard-24": (32, GCP_TYPES), "g2-standard-48": (50, GCP_TYPES), "g2-standard-96": (100, GCP_TYPES),
    "n1 + nvidia-tesla-t4": (32, GCP_TYPES), "n1 + nvidia-tesla-v100": (32, GCP_TYPES),
}


def fix_network(rows):
    for r in rows:
        net = INSTANCE_NETWORK.get(r["instance"])
        if net is None:
            r.setdefault("internode_gb_s", "")
            r["internode_gb_s"] = r.get("internode_gb_s") or ""
            continue
        gbps, _source = net
        r["internode_gb_s"] = "none" if gbps is None else repr(round(gbps / 8 / int(r["count"]), 4))
    return rows


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
    n = rewrite(os.path.join(HERE, "offers.csv"), lambda rows: fix_network(add_offers(fix_offers(rows))), key="internode_gb_s")
    p = rewrite(os.path.join(HERE, "providers.csv"), fix_providers)
    print(f"{n} offers, {p} providers")
