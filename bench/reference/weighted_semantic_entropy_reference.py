#!/usr/bin/env python3
"""Reference values of the likelihood-weighted semantic entropy, from LM-Polygraph's own estimator
code and from Farquhar et al.'s formula.

Usage:
    python3 bench/reference/weighted_semantic_entropy_reference.py /path/to/lm-polygraph [--commit SHA]

The argument is an extracted checkout of IINemo/lm-polygraph, loaded exactly as
graph_uncertainty_reference.py loads it (its loader is imported from there; see its docstring for
the two names it stubs). The fixture was made from commit efea882d810d07770e71d3a80e02416d09751435
with numpy 2.4.

Two estimators per case (labels = each sample's semantic class, loglik = each sample's sequence
log-probability):
  - lmPolygraph: SemanticEntropy() with its defaults (class_probability_estimation="sum",
    entropy_estimation="mean"), run unmodified: -mean_j log sum_{i in class(j)} exp(loglik_i),
    the class sums not normalised (Kuhn et al. 2023's Monte-Carlo estimate);
  - farquhar: the semantic_uncertainty repository's logsumexp_by_id(agg="sum_normalized") and
    predictive_entropy_rao, written out below (that repository is not installed): the class
    probability is its members' share of the samples' total sequence probability, and the entropy
    is -sum_c p_c log p_c. Its np.log(np.sum(np.exp(x))) underflows for log-likelihoods below about
    -745; the last case shifts by the maximum first (the same value in exact arithmetic) and says so.

Writes tests/fixtures/uncertainty/weighted-semantic-entropy-reference.json.
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from graph_uncertainty_reference import class_dicts, load_lm_polygraph  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "uncertainty" / "weighted-semantic-entropy-reference.json"


def farquhar(labels: list, loglik: list, shift: bool = False) -> float:
    """logsumexp_by_id(semantic_ids, log_likelihoods, agg='sum_normalized') then predictive_entropy_rao."""
    ll = np.asarray(loglik, dtype=np.float64)
    if shift:
        ll = ll - ll.max()
    order = list(dict.fromkeys(labels))
    ids = [order.index(c) for c in labels]
    per_id = []
    for uid in sorted(set(ids)):
        id_ll = np.array([ll[i] for i, x in enumerate(ids) if x == uid])
        norm = id_ll - np.log(np.sum(np.exp(ll)))
        per_id.append(np.log(np.sum(np.exp(norm))))
    per_id = np.array(per_id)
    return float(-np.sum(np.exp(per_id) * per_id))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--commit", default="efea882d810d07770e71d3a80e02416d09751435")
    args = parser.parse_args()
    lp = load_lm_polygraph(args.checkout)
    rng = np.random.default_rng(20261206)

    cases = [
        {"name": "hand: two classes", "labels": [0, 0, 1], "loglik": [float(np.log(0.5)), float(np.log(0.25)), float(np.log(0.25))]},
        {"name": "one class", "labels": [0, 0, 0, 0], "loglik": [-1.0, -2.0, -0.5, -3.0]},
        {"name": "each its own class", "labels": [0, 1, 2, 3, 4], "loglik": [-0.1, -2.0, -2.0, -5.0, -9.0]},
    ]
    for m, k in [(10, 3), (20, 5), (50, 4), (50, 12)]:
        labels = rng.integers(0, k, size=m).tolist()
        loglik = np.round(rng.uniform(-30, -0.05, size=m), 6).tolist()
        cases.append({"name": f"random m={m}, {k} labels", "labels": labels, "loglik": loglik})
    cases.append({"name": "long sequences (log-likelihoods near -1000)", "labels": [0, 1, 0, 2, 1, 0], "loglik": [-1000.0, -1001.5, -999.25, -1010.0, -1000.5, -1003.0], "shifted": True})

    for case in cases:
        labels, loglik = case["labels"], case["loglik"]
        stats = {"sample_log_probs": [loglik], "sample_texts": [[f"sample {j}" for j in range(len(labels))]], "semantic_classes_entail": class_dicts(labels)}
        case["lmPolygraph"] = float(lp["SemanticEntropy"]()(stats)[0])
        case["farquhar"] = farquhar(labels, loglik, shift=case.get("shifted", False))

    OUT.write_text(json.dumps({
        "about": "Likelihood-weighted semantic entropy, nats: lmPolygraph = LM-Polygraph's SemanticEntropy() defaults run unmodified; farquhar = semantic_uncertainty's sum_normalized class probabilities and predictive_entropy_rao (bench/reference/weighted_semantic_entropy_reference.py).",
        "lmPolygraphCommit": args.commit,
        "numpy": np.__version__,
        "cases": cases,
    }, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
