#!/usr/bin/env python3
"""The offers pipeline: writes data/offers.csv from its sources. Python 3 standard library only.

    python3 data/pipeline.py                     # regenerate data/offers.csv (and, where the
                                                 # reference is at hand, gpus.csv/providers.csv)
    python3 data/pipeline.py --skypilot DIR      # the same after importing a newer SkyPilot
                                                 # catalog snapshot into data/sources/skypilot
    python3 data/pipeline.py --check             # exit 1 if data/offers.csv is not the output

Sources (data/sources/, see its README.md):
- `skypilot/<cloud>.csv`: GPU rows of SkyPilot's catalog (github.com/skypilot-org/skypilot-catalog,
  `catalogs/v8/<cloud>/vms.csv`) in SkyPilot's own columns, with `skypilot/SNAPSHOT.csv` naming the
  commit each file was read at and the day it was read. `--skypilot DIR` first imports the GPU
  rows of `DIR/<cloud>.csv` or `DIR/<cloud>/vms.csv` (SkyPilot's own layout) into
  `skypilot/<cloud>.csv`, replacing those clouds' earlier snapshot (`DIR/SNAPSHOT.csv` names the
  commits, or `--commit`, `--read-on` and `--commit-date` do); commit the result with the
  regenerated offers.csv.
- `pages.csv`: offers transcribed from the providers' pricing pages (each with the page's `url`
  and the exact day it was read), and earlier catalog readings whose commit was not recorded
  (`snapshot_date` "~YYYY-MM": approximate, and said so in the row's note).

Rules, applied in this order:
1. Catalog rows: GPU names map to data/gpus.csv ids (rows of GPUs the project lacks are skipped);
   per cloud, GPU, count and GPU link the cheapest instance type stands for its shape (SkyPilot
   lists one row per region and several vCPU/RAM variants of one GPU shape), with the regions
   that price it so. A spot price equal to or above on-demand is not a spot market and is dropped.
   A catalog reading is dated by its commit's date where SNAPSHOT.csv gives it, else by the day
   the commit was read (the fetch behind it is at most that new).
2. Derived rows are not offers: a row whose note starts with "derived:" (a per-GPU price
   multiplied by a GPU count nobody observed) is dropped.
3. Duplicates keep the newest reading. Two rows read one offer when provider, tier, reseller,
   GPU and count agree and so do the instance types (or one row names none) and, within one
   source file, the regions. Newest means: an exact observation date beats a catalog commit read
   on a day (its fetch date is unknown), which beats an approximate date; then the later date.
   The winner takes the instance type (and, if it states none, the region) the other named, if
   it named none.
4. Per-instance facts: `gpu_link` (how the instance's GPUs talk to each other: the GPU's fabric
   from gpus.csv; a bridge-capable PCIe card counts as bridged only where the instance type names
   NVLink; `none` for one GPU), the network between instances (`INSTANCE_NETWORK`: type, Gb/s of
   the instance, and `internode_gb_s` = Gb/s / 8 / GPUs; empty where the provider's figure
   applies) and local disk (`LOCAL_DISK_GB`; empty when unknown).
5. Ids are `provider[-tier][-via-reseller]/gpu/count`, with -2, -3... for further shapes, in
   output order (pages.csv order, then the catalogs').

Prices stay in the currency the source gives (`currency`, ISO 4217); nothing is converted.
Running it twice changes nothing.
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.join(HERE, "sources")
REFERENCE = "/work/shared/reference"

COLUMNS = ["id", "provider", "gpu", "count", "on_demand_usd_h", "spot_usd_h", "region", "instance", "tier", "via",
           "source", "snapshot_date", "confidence", "note", "internode_gb_s", "currency", "url", "gpu_link",
           "internode_network", "internode_gbit_s", "local_disk_gb"]
PAGE_COLUMNS = ["provider", "tier", "via", "gpu", "count", "on_demand_per_h", "spot_per_h", "currency", "region",
                "instance", "source", "url", "snapshot_date", "confidence", "note"]
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
APPROX = re.compile(r"^~\d{4}(-\d{2})?$")

# SkyPilot cloud directory -> provider id in data/providers.csv.
CLOUDS = {"aws": "aws", "gcp": "gcp", "azure": "azure", "lambda": "lambda", "nebius": "nebius", "oci": "oci",
          "hyperstack": "hyperstack", "jarvislabs": "jarvislabs", "cudo": "cudo", "verda": "verda", "lium": "lium",
          "seeweb": "seeweb", "yotta": "yotta", "hyperbolic": "hyperbolic", "mithril": "mithril", "spheron": "spheron",
          "vast": "vast", "runpod": "runpod", "shadeform": "shadeform"}
# Shadeform resells other clouds' instances under one catalog; the instance type names the
# provider (`paperspace_H100`). Prefix -> provider id; other prefixes are skipped (Lambda and
# Hyperstack are read from their own catalogs; Vultr lists only the A16, no tunefit GPU).
SHADEFORM = {"paperspace": "paperspace", "scaleway": "scaleway", "massedcompute": "massed-compute", "denvr": "denvr",
             "crusoe": "crusoe", "excesssupply": "excess-supply"}
# Form factors Shadeform's GPU names leave out: its instance types say `sxm` where the A100 is
# SXM, so an 80 GB A100 without it is the PCIe card (Crusoe's `A100-80GB` lists 2.00/GPU, Crusoe's
# PCIe price; Massed Compute lists `A100-80GB` beside `A100-sxm4-80GB`); Scaleway's H100-1/2-80G
# are PCIe (github.com/scaleway/docs-content pull 5756, "migrate h100 pcie").
SHADEFORM_PCIE = {"scaleway": {"h100-sxm": "h100-pcie"}}
# GCP's catalog prices a machine type's host (rows with no AcceleratorName) apart from its GPUs
# (rows with no InstanceType); an instance is a GPU row plus the host SkyPilot pairs it with in the
# same zone (sky/catalog/gcp_catalog.py list_accelerators, skypilot-org/skypilot@b9dd08e76883):
# the machine types the GPU comes bundled in (A2, A3, G2), else the cheapest N1 type with at least
# N1_CPUS vCPUs and 4 GiB of memory per vCPU. Spot prices add up the same way.
GCP_HOSTS = {"A100": {1: ["a2-highgpu-1g"], 2: ["a2-highgpu-2g"], 4: ["a2-highgpu-4g"], 8: ["a2-highgpu-8g"],
                      16: ["a2-megagpu-16g"]},
             "A100-80GB": {1: ["a2-ultragpu-1g"], 2: ["a2-ultragpu-2g"], 4: ["a2-ultragpu-4g"], 8: ["a2-ultragpu-8g"]},
             "L4": {1: ["g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16", "g2-standard-32"],
                    2: ["g2-standard-24"], 4: ["g2-standard-48"], 8: ["g2-standard-96"]},
             "H100": {1: ["a3-highgpu-1g"], 2: ["a3-highgpu-2g"], 4: ["a3-highgpu-4g"], 8: ["a3-highgpu-8g"]},
             "H100-MEGA": {8: ["a3-megagpu-8g"]}, "H200": {8: ["a3-ultragpu-8g"]}, "B200": {8: ["a4-highgpu-8g"]}}
N1_CPUS = {"V100": {1: 8, 2: 16, 4: 32, 8: 64}, "T4": {1: 4, 2: 8, 4: 48}, "P100": {1: 8, 2: 16, 4: 32, 8: 64},
           "": {1: 8, 2: 16, 4: 32, 8: 64, 16: 128}}
# Clouds whose catalog SpotPrice column is not a spot market (RunPod: equal to on-demand;
# Vast: not captured).
NO_SPOT = {"runpod", "vast"}
# Clouds whose GpuInfo SizeInMiB is the whole instance's GPU memory, not one GPU's (Vast:
# 2x-A100_SXM4 lists 81920 MiB for two 40 GB cards).
TOTAL_GPU_MIB = {"vast"}


def gpu_id(name, instance, mib):
    """SkyPilot's AcceleratorName (with the instance type and GPU memory) -> gpus.csv id, or None."""
    n = re.sub(r"[-_ ]", "", name.upper())
    # The form factor may be spelled in the instance type only (Cudo "a100-pci_", Vast "H100_NVL").
    pcie = "PCIE" in n or "pci" in instance.lower()
    n = n.replace("NVLINK", "")
    if n.startswith("H100"):
        nvl = "NVL" in n or re.search(r"nvl(?!ink)", instance.lower())
        return "h100-pcie" if pcie else "h100-nvl" if nvl else "h100-sxm"
    if n.startswith("A100"):
        big = "80G" in n or (mib or 0) >= 80000
        return ("a100-pcie-80gb" if pcie else "a100-80gb") if big else "a100-40gb"
    if n.startswith("V100"):
        return "v100-32gb" if "32" in n or (mib or 0) >= 32000 else "v100-16gb"
    simple = {"H200": "h200", "B200": "b200", "B300": "b300", "GH200": "gh200", "GB200": "gb200", "GB300": "gb300", "A30": "a30", "L40S": "l40s",
              "L40": "l40", "L4": "l4", "L20": "l20", "H20": "h20", "A10G": "a10g", "A10": "a10", "A40": "a40",
              "T4": "t4", "A6000": "rtx-a6000", "RTXA6000": "rtx-a6000", "A5000": "rtx-a5000", "RTXA5000": "rtx-a5000",
              "A4000": "rtx-a4000", "RTXA4000": "rtx-a4000", "RTX4090": "rtx-4090", "RTX5090": "rtx-5090",
              "RTX3090": "rtx-3090", "RTX6000ADA": "rtx-6000-ada", "RTXPRO6000": "rtx-pro-6000",
              "RTXPRO6000S": "rtx-pro-6000", "RTXPROSERVER6000": "rtx-pro-6000", "MI300X": "mi300x",
              "MI325X": "mi325x", "MI355X": "mi355x", "GAUDI2": "gaudi2", "GAUDI3": "gaudi3"}
    return simple.get(n)


# The network between instances is a property of the instance type, not of the provider: a
# provider-wide figure (AWS 50 GB/s per GPU, GCP 25) holds for its flagship training instances
# only. Instance type -> (network type, Gb/s of the whole instance or None where the instance has
# no network meant for multi-node training, source). `internode_gb_s` = Gb/s / 8 / GPUs.
AWS_TYPES = "aws.amazon.com/ec2/instance-types accelerated computing (Network Bandwidth column; EFA where listed)"
AZURE_TYPES = "learn.microsoft.com Azure N-series sizes (ND: InfiniBand per GPU; NC: no InfiniBand)"
GCP_TYPES = "cloud.google.com/compute/docs/gpus/gpu-network-bandwidth (A3 high: GPUDirect-TCPX; A2/G2/N1: no GPUDirect)"
INSTANCE_NETWORK = {
    # AWS: p4d/p4de 400 Gb/s EFA per node (the audit: 6.25 GB/s per GPU, not p5's 50); the G
    # family's figure is its ENA network (EFA is not asserted for them here).
    "p4d.24xlarge": ("efa", 400, AWS_TYPES), "p4de.24xlarge": ("efa", 400, AWS_TYPES),
    "p3dn.24xlarge": ("efa", 100, AWS_TYPES), "p3.16xlarge": ("ena", 25, AWS_TYPES),
    "p3.8xlarge": ("ena", 10, AWS_TYPES), "p3.2xlarge": ("ena", 10, AWS_TYPES),
    "g4dn.xlarge": ("ena", 25, AWS_TYPES), "g4dn.12xlarge": ("ena", 50, AWS_TYPES), "g4dn.metal": ("ena", 100, AWS_TYPES),
    "g5.xlarge": ("ena", 10, AWS_TYPES), "g5.2xlarge": ("ena", 10, AWS_TYPES), "g5.12xlarge": ("ena", 40, AWS_TYPES),
    "g5.48xlarge": ("ena", 100, AWS_TYPES),
    "g6.xlarge": ("ena", 10, AWS_TYPES), "g6.12xlarge": ("ena", 40, AWS_TYPES), "g6.48xlarge": ("ena", 100, AWS_TYPES),
    "g6e.xlarge": ("ena", 20, AWS_TYPES), "g6e.12xlarge": ("ena", 100, AWS_TYPES), "g6e.48xlarge": ("ena", 400, AWS_TYPES),
    # Azure: ND v2 100 Gb/s EDR per node, ND A100 v4 200 Gb/s HDR per GPU; NC-series none.
    "ND40rs_v2": ("infiniband", 100, AZURE_TYPES), "ND96asr_v4": ("infiniband", 1600, AZURE_TYPES),
    "ND96amsr_A100_v4": ("infiniband", 1600, AZURE_TYPES),
    **{t: ("none", None, AZURE_TYPES) for t in ["NC24ads_A100_v4", "NC48ads_A100_v4", "NC96ads_A100_v4",
                                                "NC40ads_H100_v5", "NC80adis_H100_v5", "NC4as_T4_v3", "NC64as_T4_v3",
                                                "NC6s_v3", "NC24s_v3"]},
    # GCP: A3 high 8g GPUDirect-TCPX (half of A3 Mega's TCPXO, the audit); partial A3 shapes,
    # A2, G2 and N1 run NCCL over plain TCP.
    "a3-highgpu-8g": ("gpudirect-tcpx", 800, GCP_TYPES),
    **{t: ("none", None, GCP_TYPES) for t in ["a3-highgpu-1g", "a3-highgpu-2g", "a3-highgpu-4g"]},
    "a2-highgpu-1g": ("ethernet", 24, GCP_TYPES), "a2-highgpu-2g": ("ethernet", 32, GCP_TYPES),
    "a2-highgpu-4g": ("ethernet", 50, GCP_TYPES), "a2-highgpu-8g": ("ethernet", 100, GCP_TYPES),
    "a2-megagpu-16g": ("ethernet", 100, GCP_TYPES), "a2-ultragpu-1g": ("ethernet", 24, GCP_TYPES),
    "a2-ultragpu-2g": ("ethernet", 32, GCP_TYPES), "a2-ultragpu-4g": ("ethernet", 50, GCP_TYPES),
    "a2-ultragpu-8g": ("ethernet", 100, GCP_TYPES),
    "g2-standard-4": ("ethernet", 10, GCP_TYPES), "g2-standard-24": ("ethernet", 32, GCP_TYPES),
    "g2-standard-48": ("ethernet", 50, GCP_TYPES), "g2-standard-96": ("ethernet", 100, GCP_TYPES),
    # N1 hosts SkyPilot pairs T4 and V100 GPUs with (gcp_instances); the figure the earlier
    # "n1 + nvidia-tesla-*" rows carried.
    **{t: ("ethernet", 32, GCP_TYPES) for t in ["n1-highmem-4", "n1-highmem-8", "n1-highmem-16", "n1-highmem-32",
                                                "n1-highmem-64", "n1-standard-64"]},
}
# Instance-store (local NVMe/SSD) capacity in GB, per instance type, from a page read with its
# date. None has been read yet, so every offer's local disk is unknown (empty); a figure
# recalled without a page to cite does not go in.
LOCAL_DISK_GB = {}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(s):
    return float(s) if s not in ("", None) else None


def fmt(x):
    return "" if x is None else repr(round(x, 4))


def clean(s):
    """The bundled CSV reader takes no quoting: commas become ';'."""
    return (s or "").replace(",", ";").replace("\n", " ").replace('"', "'").strip()


def read_snapshot(path):
    if not os.path.exists(path):
        return {}
    return {r["cloud"]: r for r in read_csv(path)}


def gcp_instances(rows):
    """GCP's GPU rows priced as whole instances: each GPU row plus its host in the same zone."""
    hosts = {}
    for r in rows:
        if r.get("InstanceType") and not r.get("AcceleratorName") and r.get("Price"):
            hosts.setdefault((r["Region"], r["AvailabilityZone"]), []).append(r)
    out = []
    for r in rows:
        name = r.get("AcceleratorName") or ""
        if r.get("InstanceType") or not name or name.startswith("tpu-") or not r.get("Price"):
            continue
        count = int(float(r["AcceleratorCount"]))
        zone = hosts.get((r["Region"], r["AvailabilityZone"]), [])
        if name in GCP_HOSTS:
            fit = [h for h in zone if h["InstanceType"] in GCP_HOSTS[name].get(count, [])]
        else:
            cpus = N1_CPUS.get(name, N1_CPUS[""]).get(count)
            fit = [h for h in zone if cpus and h["InstanceType"].startswith("n1-")
                   and float(h["vCPUs"]) >= cpus and float(h["MemoryGiB"]) >= 4 * cpus]
        if not fit:
            continue
        host = min(fit, key=lambda h: float(h["Price"]))
        spot = [num(r.get("SpotPrice")), num(host.get("SpotPrice"))]
        out.append(dict(r, InstanceType=host["InstanceType"], Price=str(float(r["Price"]) + float(host["Price"])),
                        SpotPrice="" if None in spot else str(spot[0] + spot[1])))
    return out


def catalog_rows(directory, snapshot, fabrics):
    """Offers from a directory of SkyPilot catalog files, one row per cloud, GPU, count and link."""
    out = []
    for cloud in sorted(CLOUDS):
        path = next((p for p in (os.path.join(directory, f"{cloud}.csv"), os.path.join(directory, cloud, "vms.csv"))
                     if os.path.exists(p)), None)
        if path is None:
            continue
        snap = snapshot.get(cloud)
        if not snap or not snap.get("commit") or not DATE.match(snap.get("read_on", "")):
            sys.exit(f"pipeline: {path}: no commit and read_on date for {cloud} in SNAPSHOT.csv (or --commit/--read-on)")
        shapes = {}  # (provider, gpu, count, link) -> [price, spot, instance, regions, order]
        rows = read_csv(path)
        for i, r in enumerate(gcp_instances(rows) if cloud == "gcp" else rows):
            if not r.get("AcceleratorName") or not r.get("Price"):
                continue
            provider = SHADEFORM.get(r["InstanceType"].split("_")[0]) if cloud == "shadeform" else CLOUDS[cloud]
            if provider is None:
                continue
            count = num(r["AcceleratorCount"])
            if not count or count != int(count):
                continue
            count = int(count)
            mib = re.search(r"'SizeInMiB': (\d+)", r.get("GpuInfo") or "")
            mib = int(mib.group(1)) // (count if cloud in TOTAL_GPU_MIB else 1) if mib else None
            gpu = gpu_id(r["AcceleratorName"], r["InstanceType"], mib)
            if cloud == "shadeform":
                if gpu == "a100-80gb" and "sxm" not in r["InstanceType"].lower():
                    gpu = "a100-pcie-80gb"
                gpu = SHADEFORM_PCIE.get(provider, {}).get(gpu, gpu)
            if gpu not in fabrics:
                continue
            price = float(r["Price"])
            spot = num(r.get("SpotPrice"))
            if cloud in NO_SPOT or (spot is not None and spot >= price):
                spot = None
            link = gpu_link(fabrics[gpu], count, r["InstanceType"])
            key = (provider, gpu, count, link)
            s = shapes.get(key)
            if s is None or price < s[0]:
                shapes[key] = [price, spot, r["InstanceType"], [r["Region"]], i]
            elif price == s[0] and r["InstanceType"] == s[2]:
                if r["Region"] not in s[3]:
                    s[3].append(r["Region"])
                if spot is not None and (s[1] is None or spot < s[1]):
                    s[1] = spot
        commit = snap["commit"]
        dated = DATE.match(snap.get("commit_date") or "")
        for (provider, gpu, count, link), (price, spot, instance, regions, _) in sorted(shapes.items(),
                                                                                   key=lambda kv: kv[1][4]):
            out.append(dict(
                provider=provider, tier="", via="shadeform" if cloud == "shadeform" else "", gpu=gpu, count=count, on_demand=price, spot=spot, currency="USD",
                region=" / ".join(regions) if len(regions) <= 3 else f"{len(regions)} regions",
                instance=instance, source=f"skypilot-catalog v8 {cloud}/vms.csv at {commit[:12]}",
                url=f"https://github.com/skypilot-org/skypilot-catalog/blob/{commit}/{snap.get('repository_path') or f'catalogs/v8/{cloud}/vms.csv'}",
                snapshot_date=snap["commit_date"] if dated else snap["read_on"], confidence="medium",
                note=(f"catalog commit dated {snap['commit_date']}" if dated
                      else f"catalog commit read {snap['read_on']} (the commit's own date unknown)"),
                origin="catalog", undated=not dated))
    return out


def import_snapshot(src_dir, snapshot, dest_dir, fabrics):
    """Copies the GPU rows of each cloud catalog in `src_dir` (SkyPilot's columns, unchanged)
    into `dest_dir/<cloud>.csv` and records its commit in `dest_dir/SNAPSHOT.csv`; clouds
    `src_dir` lacks keep their earlier snapshot. Returns the clouds imported."""
    done = []
    for cloud in sorted(CLOUDS):
        path = next((p for p in (os.path.join(src_dir, f"{cloud}.csv"), os.path.join(src_dir, cloud, "vms.csv"))
                     if os.path.exists(p)), None)
        if path is None:
            continue
        snap = snapshot.get(cloud) or {}
        if not snap.get("commit") or not DATE.match(snap.get("read_on") or ""):
            sys.exit(f"pipeline: {path}: give the commit and the day it was read (SNAPSHOT.csv, or --commit and --read-on)")
        with open(path, newline="") as f:
            reader = csv.reader(f)
            header = next(reader)
            col = {h: i for i, h in enumerate(header)}
            keep = []
            for row in reader:
                r = dict(zip(header, row))
                mib = re.search(r"'SizeInMiB': (\d+)", r.get("GpuInfo") or "")
                if cloud == "gcp" and not r.get("AcceleratorName") and (r["InstanceType"].startswith("n1-") or any(
                        r["InstanceType"] in types for sizes in GCP_HOSTS.values() for types in sizes.values())):
                    keep.append(row)  # a GPU host: priced apart from its GPUs (gcp_instances)
                elif r.get("AcceleratorName") and r.get("Price") and \
                        gpu_id(r["AcceleratorName"], r["InstanceType"], int(mib.group(1)) if mib else None) in fabrics:
                    keep.append(row)
        assert "InstanceType" in col and "Price" in col, f"{path}: not a SkyPilot vms.csv"
        with open(os.path.join(dest_dir, f"{cloud}.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows(keep)
        done.append(dict(cloud=cloud, repository_path=snap.get("repository_path") or f"catalogs/v8/{cloud}/vms.csv",
                         commit=snap["commit"], read_on=snap["read_on"], commit_date=snap.get("commit_date") or ""))
    if done:
        old = read_snapshot(os.path.join(dest_dir, "SNAPSHOT.csv"))
        old.update({d["cloud"]: d for d in done})
        with open(os.path.join(dest_dir, "SNAPSHOT.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["cloud", "repository_path", "commit", "read_on", "commit_date"],
                               lineterminator="\n", extrasaction="ignore")
            w.writeheader()
            w.writerows(sorted(({"commit_date": "", **r} for r in old.values()), key=lambda r: r["cloud"]))
    return [d["cloud"] for d in done]


def page_rows(path):
    rows = []
    for i, r in enumerate(read_csv(path)):
        assert list(r.keys()) == PAGE_COLUMNS, f"{path}: columns {list(r.keys())}"
        rows.append(dict(provider=r["provider"], tier=r["tier"], via=r["via"], gpu=r["gpu"], count=int(r["count"]),
                         on_demand=num(r["on_demand_per_h"]), spot=num(r["spot_per_h"]), currency=r["currency"],
                         region=r["region"], instance=r["instance"], source=r["source"], url=r["url"],
                         snapshot_date=r["snapshot_date"], confidence=r["confidence"], note=r["note"], origin="page"))
    return rows


def is_derived(row):
    return row["note"].lower().startswith("derived:")


def rank(row):
    """Newest-reading order: exact observation date > catalog read date > approximate date."""
    d = row["snapshot_date"]
    cls = 0 if d.startswith("~") else 1 if row.get("undated") else 2
    return (cls, d.lstrip("~"))


def same_offer(a, b):
    if (a["provider"], a["tier"], a["via"], a["gpu"], a["count"]) != (b["provider"], b["tier"], b["via"], b["gpu"], b["count"]):
        return False
    if a["origin"] == b["origin"] and a["region"] != b["region"]:
        return False
    return a["instance"] == b["instance"] or not a["instance"] or not b["instance"]


def dedupe(rows):
    """Keeps the newest reading of each offer (rule 3); the order of first appearance stays."""
    kept = []
    for r in rows:
        for i, k in enumerate(kept):
            if same_offer(r, k):
                new, old = (r, k) if rank(r) > rank(k) else (k, r)
                if not new["instance"] and old["instance"]:
                    new = dict(new, instance=old["instance"])
                    if new["region"] in ("", "(not stated)"):
                        new["region"] = old["region"]
                kept[i] = new
                break
        else:
            kept.append(r)
    return kept


def gpu_link(fabric, count, instance):
    if count == 1:
        return "none"
    if fabric == "bridge":
        return "bridge" if "nvlink" in instance.lower() else "pcie"
    return fabric


def check_row(r):
    d = r["snapshot_date"]
    assert DATE.match(d) or APPROX.match(d), f"{r}: snapshot_date must be YYYY-MM-DD or ~YYYY[-MM]"
    assert re.match(r"^[A-Z]{3}$", r["currency"]), f"{r}: currency"
    assert r["url"].startswith("https://"), f"{r}: url"
    assert r["on_demand"] is not None or r["spot"] is not None, f"{r}: no price"


def build(skypilot_dir, snapshot, pages_path=None, gpus_path=None):
    fabrics = {g["id"]: g["fabric"] for g in read_csv(gpus_path or os.path.join(HERE, "gpus.csv"))}
    rows = page_rows(pages_path or os.path.join(SOURCES, "pages.csv")) + catalog_rows(skypilot_dir, snapshot, fabrics)
    rows = dedupe([r for r in rows if not is_derived(r)])
    out, seen = [], {}
    for r in rows:
        check_row(r)
        assert r["gpu"] in fabrics, f"unknown GPU {r['gpu']}"
        base = f"{r['provider']}{'-' + r['tier'] if r['tier'] else ''}{'-via-' + r['via'] if r['via'] else ''}/{r['gpu']}/{r['count']}"
        k = seen.get(base, 0) + 1
        seen[base] = k
        net_type, gbps, _ = INSTANCE_NETWORK.get(r["instance"], ("", None, ""))
        if not net_type:
            internode = ""
        elif gbps is None:
            internode = "none"
        else:
            internode = fmt(gbps / 8 / r["count"])
        disk = LOCAL_DISK_GB.get(r["instance"])
        out.append({
            "id": base if k == 1 else f"{base}-{k}", "provider": r["provider"], "gpu": r["gpu"], "count": str(r["count"]),
            "on_demand_usd_h": fmt(r["on_demand"]), "spot_usd_h": fmt(r["spot"]), "region": clean(r["region"]),
            "instance": clean(r["instance"]), "tier": r["tier"], "via": r["via"], "source": clean(r["source"]),
            "snapshot_date": r["snapshot_date"], "confidence": r["confidence"], "note": clean(r["note"]),
            "internode_gb_s": internode, "currency": r["currency"], "url": clean(r["url"]),
            "gpu_link": gpu_link(fabrics[r["gpu"]], r["count"], r["instance"]), "internode_network": net_type,
            "internode_gbit_s": "" if gbps is None else str(gbps), "local_disk_gb": "" if disk is None else str(disk),
        })
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(out)
    text = buf.getvalue()
    assert '"' not in text, "a value needs quoting; the bundled CSV reader takes none"
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skypilot", help="directory of SkyPilot catalog files (default data/sources/skypilot)")
    ap.add_argument("--commit", help="the catalog commit read (for a --skypilot directory without SNAPSHOT.csv)")
    ap.add_argument("--read-on", help="the day that commit was read, YYYY-MM-DD")
    ap.add_argument("--commit-date", help="the commit's own date, YYYY-MM-DD, where known")
    ap.add_argument("--check", action="store_true", help="compare with data/offers.csv instead of writing it")
    ap.add_argument("--out", default=os.path.join(HERE, "offers.csv"))
    a = ap.parse_args(argv)
    fixture = os.path.join(SOURCES, "skypilot")
    if a.skypilot:
        if a.check:
            sys.exit("pipeline: --check compares the committed sources; import a snapshot without it")
        snapshot = read_snapshot(os.path.join(a.skypilot, "SNAPSHOT.csv"))
        if a.commit:
            snapshot = {c: {"cloud": c, "commit": a.commit, "read_on": a.read_on or "", "commit_date": a.commit_date or ""}
                        for c in CLOUDS}
        fabrics = {g["id"]: g["fabric"] for g in read_csv(os.path.join(HERE, "gpus.csv"))}
        clouds = import_snapshot(a.skypilot, snapshot, fixture, fabrics)
        print(f"imported the GPU rows of {', '.join(clouds) or 'no cloud'} into {fixture}", file=sys.stderr)
    if not a.check and os.path.isdir(REFERENCE):
        # The GPU and provider step (needs the reference material outside the repository).
        for script in ("derive.py", "audit_2026_12.py"):
            subprocess.run([sys.executable, os.path.join(HERE, script)], check=True)
    text = build(fixture, read_snapshot(os.path.join(fixture, "SNAPSHOT.csv")))
    if a.check:
        with open(a.out, newline="") as f:
            old = f.read()
        if old != text:
            old_l, new_l = old.splitlines(), text.splitlines()
            diff = [f"- {l}" for l in old_l if l not in set(new_l)][:5] + [f"+ {l}" for l in new_l if l not in set(old_l)][:5]
            print(f"{a.out} is not the pipeline's output ({len(old_l)} vs {len(new_l)} lines):", *diff, sep="\n")
            return 1
        print(f"{a.out}: up to date ({text.count(chr(10)) - 1} offers)")
        return 0
    with open(a.out, "w", newline="") as f:
        f.write(text)
    print(f"{a.out}: {text.count(chr(10)) - 1} offers", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
