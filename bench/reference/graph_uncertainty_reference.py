#!/usr/bin/env python3
"""Reference values of the black-box uncertainty signals, from LM-Polygraph's own estimator code.

Usage:
    python3 bench/reference/graph_uncertainty_reference.py /path/to/lm-polygraph [--commit SHA]

The argument is an extracted checkout of IINemo/lm-polygraph (the folder holding src/lm_polygraph,
or src/lm_polygraph itself). Its code is imported at run time and never copied here. The fixture
was made from commit efea882d810d07770e71d3a80e02416d09751435 with numpy 2.4 and scipy 1.17.

LM-Polygraph's package __init__ files import torch, transformers and PIL, which the estimators used
here do not need. So the script registers empty package modules for lm_polygraph,
lm_polygraph.utils and lm_polygraph.estimators (pointing at the checkout's folders, so that
`from .common import ...` loads the real files) and stubs exactly two names:
  - lm_polygraph.utils.common.polygraph_module_init: in LM-Polygraph a decorator that only logs
    "Initializing <class>" before calling __init__; here it returns the function unchanged;
  - torch.nn.Softmax: num_sem_sets.py builds a module-level softmax it never calls.
Everything else (EigValLaplacian, DegMat, Eccentricity, NumSemSets, SemanticEntropy, the Jaccard
similarity in estimators/common.py) runs unmodified.

ROUGE-L (lexical_similarity.py) needs rouge_score and nltk, which are not installed; its unit tests
use hand-computed vectors instead.

Writes tests/fixtures/uncertainty/graph-reference.json (matrices flattened row-major).
"""

import argparse
import importlib
import json
import sys
import types
from pathlib import Path

import numpy as np
import scipy

OUT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "uncertainty" / "graph-reference.json"
ECC_THRESHOLD = 0.9


def package_dir(root: Path) -> Path:
    for candidate in (root / "src" / "lm_polygraph", root / "lm_polygraph", root):
        if (candidate / "estimators" / "eig_val_laplacian.py").is_file():
            return candidate
    sys.exit(f"no lm_polygraph/estimators/eig_val_laplacian.py under {root}")


def load_lm_polygraph(root: Path) -> dict:
    pkg = package_dir(root)

    def package(name: str, path: Path) -> types.ModuleType:
        module = types.ModuleType(name)
        module.__path__ = [str(path)]
        sys.modules[name] = module
        return module

    package("lm_polygraph", pkg)
    package("lm_polygraph.utils", pkg / "utils")
    package("lm_polygraph.estimators", pkg / "estimators")
    common = types.ModuleType("lm_polygraph.utils.common")
    common.polygraph_module_init = lambda func: func
    sys.modules["lm_polygraph.utils.common"] = common
    torch = types.ModuleType("torch")
    torch.nn = types.ModuleType("torch.nn")
    torch.nn.Softmax = lambda *args, **kwargs: None
    sys.modules["torch"] = torch
    sys.modules["torch.nn"] = torch.nn

    est = "lm_polygraph.estimators."
    return {
        "EigValLaplacian": importlib.import_module(est + "eig_val_laplacian").EigValLaplacian,
        "DegMat": importlib.import_module(est + "deg_mat").DegMat,
        "Eccentricity": importlib.import_module(est + "eccentricity").Eccentricity,
        "NumSemSets": importlib.import_module(est + "num_sem_sets").NumSemSets,
        "SemanticEntropy": importlib.import_module(est + "semantic_entropy").SemanticEntropy,
        "jaccard": importlib.import_module(est + "common")._compute_Jaccard_score,
    }


def flat(matrix: np.ndarray) -> list:
    return [float(x) for x in np.asarray(matrix, dtype=np.float64).ravel()]


def graph_values(lp: dict, stats: dict, **kwargs) -> dict:
    """EigV, Deg, Ecc as LM-Polygraph's estimators return them for a batch of one question."""
    return {
        "eigV": float(lp["EigValLaplacian"](**kwargs)(stats)[0]),
        "deg": float(lp["DegMat"](**kwargs)(stats)[0]),
        "ecc": float(lp["Eccentricity"](**kwargs)(stats)[0]),
    }


def laplacian_eigenvalues(w: np.ndarray) -> np.ndarray:
    w = (w + w.T) / 2
    r = 1 / np.sqrt(w.sum(axis=1))
    return scipy.linalg.eigh(np.eye(len(w)) - r[:, None] * w * r[None, :], eigvals_only=True)


def check_threshold_margin(w: np.ndarray, name: str) -> float:
    """Distance of the Laplacian's eigenvalues from Ecc's threshold: a tiny one would make Ecc fragile."""
    margin = float(np.min(np.abs(laplacian_eigenvalues(w) - ECC_THRESHOLD)))
    if margin < 1e-6:
        sys.exit(f"{name}: an eigenvalue lies within {margin} of the threshold; pick another seed")
    return margin


def nli_matrices(rng: np.random.Generator, m: int, clusters: int):
    """Entail/contra probabilities shaped like DeBERTa's on clustered answers: high entailment
    inside a latent cluster, low across, asymmetric, rounded to 4 decimals (the reference computes
    on the rounded values)."""
    latent = rng.integers(0, clusters, size=m)
    same = latent[:, None] == latent[None, :]
    entail = np.where(same, rng.uniform(0.6, 1.0, (m, m)), rng.uniform(0.0, 0.35, (m, m)))
    contra = np.where(same, rng.uniform(0.0, 0.1, (m, m)), rng.uniform(0.05, 0.9, (m, m)))
    np.fill_diagonal(entail, rng.uniform(0.85, 1.0, m))
    np.fill_diagonal(contra, rng.uniform(0.0, 0.05, m))
    return np.round(entail, 4), np.round(contra, 4)


def class_dicts(labels: list) -> dict:
    """LM-Polygraph's semantic_classes_entail for one question, classes in first-appearance order."""
    order = list(dict.fromkeys(labels))
    class_to_sample = [[j for j, c in enumerate(labels) if c == k] for k in order]
    sample_to_class = {j: order.index(c) for j, c in enumerate(labels)}
    return {"class_to_sample": {0: class_to_sample}, "sample_to_class": {0: sample_to_class}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--commit", default="efea882d810d07770e71d3a80e02416d09751435")
    args = parser.parse_args()
    lp = load_lm_polygraph(args.checkout)
    rng = np.random.default_rng(20260529)

    nli_cases = []
    for m, clusters in [(1, 1), (2, 2), (3, 2), (5, 3), (8, 3), (12, 4), (20, 5), (50, 6)]:
        entail, contra = nli_matrices(rng, m, clusters)
        stats = {
            "semantic_matrix_entail": entail[None],
            "semantic_matrix_contra": contra[None],
            "sample_texts": [[f"sample {j}" for j in range(m)]],
        }
        check_threshold_margin(entail, f"nli m={m} entail")
        check_threshold_margin(1 - contra, f"nli m={m} contra")
        nli_cases.append({
            "name": f"clustered NLI, m={m}",
            "m": m,
            "entail": flat(entail),
            "contra": flat(contra),
            "entailAffinity": graph_values(lp, stats, similarity_score="NLI_score", affinity="entail"),
            "contraAffinity": graph_values(lp, stats, similarity_score="NLI_score", affinity="contra"),
            "numSets": float(lp["NumSemSets"]()(stats)[0]),
        })
    for m in (6, 15):
        entail = np.round(rng.uniform(0, 1, (m, m)), 4)
        contra = np.round(rng.uniform(0, 1, (m, m)), 4)
        stats = {"semantic_matrix_entail": entail[None], "semantic_matrix_contra": contra[None], "sample_texts": [["x"] * m]}
        check_threshold_margin(entail, f"uniform m={m}")
        check_threshold_margin(1 - contra, f"uniform m={m} contra")
        nli_cases.append({
            "name": f"uniform random NLI, m={m}",
            "m": m,
            "entail": flat(entail),
            "contra": flat(contra),
            "entailAffinity": graph_values(lp, stats, similarity_score="NLI_score", affinity="entail"),
            "contraAffinity": graph_values(lp, stats, similarity_score="NLI_score", affinity="contra"),
            "numSets": float(lp["NumSemSets"]()(stats)[0]),
        })

    partition_cases = []
    label_sets = [[0], [0, 0, 0, 0], [0, 1, 2, 3], [0, 0, 1, 0, 2, 1, 0], [2, 0, 2, 1, 1, 0, 2, 2, 3, 0]]
    label_sets += [rng.integers(0, k, size=m).tolist() for m, k in [(30, 4), (50, 3), (50, 12)]]
    for labels in label_sets:
        m = len(labels)
        w = np.equal.outer(labels, labels).astype(np.float64)
        stats = {
            "semantic_matrix_entail": w[None],
            "sample_texts": [[f"sample {j}" for j in range(m)]],
            "semantic_classes_entail": class_dicts(labels),
        }
        partition_cases.append({
            "labels": labels,
            "graph": graph_values(lp, stats, similarity_score="NLI_score", affinity="entail"),
            "semanticEntropy": float(lp["SemanticEntropy"](class_probability_estimation="frequency")(stats)[0]),
        })

    text_sets = [
        ["Paris", "paris", "Paris, France", "It is Paris.", "Lyon"],
        ["The answer is 42", "the answer is 42", "42", "Forty-two", "", "The  answer\tis\n42!"],
        ["a b c", "c b a", "a a b", "d"],
        ["Ünïcode Straße", "ünïcode straße", "UNICODE STRASSE"],
    ]
    jaccard_cases = []
    for texts in text_sets:
        stats = {"sample_texts": [texts]}
        w = lp["jaccard"](texts)
        check_threshold_margin(w, f"jaccard {texts}")
        jaccard_cases.append({
            "texts": texts,
            "similarity": flat(w),
            "graph": graph_values(lp, stats, similarity_score="Jaccard_score"),
        })

    fixture = {
        "about": "Values from LM-Polygraph's own estimators (bench/reference/graph_uncertainty_reference.py); matrices row-major.",
        "lmPolygraphCommit": args.commit,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "eccThreshold": ECC_THRESHOLD,
        "nli": nli_cases,
        "partitions": partition_cases,
        "jaccard": jaccard_cases,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT} ({len(nli_cases)} NLI, {len(partition_cases)} partition, {len(jaccard_cases)} Jaccard cases)")


if __name__ == "__main__":
    main()
