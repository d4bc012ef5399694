"""A tiny Qwen3 model for the real engine: random weights (fixed seed), real tokenizer.

Writes a GGUF file of llama.cpp's qwen3 architecture (2 layers, width 64) whose vocabulary,
merges, token types, special tokens and chat template are models/qwen3's, with the gguf package
of the same llama.cpp source (gguf-py/, on PYTHONPATH) and numpy. Its text is random; its ids
are real Qwen3 ids. Token types follow llama.cpp's convert_hf_to_gguf: added tokens that are
special, or look special (<|...|>), are CONTROL, other added tokens USER_DEFINED.

  python3 make_model.py MODEL_DIR OUT.gguf
"""

import json
import sys

import numpy as np

import gguf

N_EMBD, N_LAYER, N_HEAD, N_HEAD_KV, HEAD_DIM, N_FF = 64, 2, 4, 2, 16, 128
CONTEXT = 40960  # Qwen3's max_position_embeddings


def vocab(model_dir):
    with open(f"{model_dir}/tokenizer.json", encoding="utf-8") as f:
        tok = json.load(f)
    with open(f"{model_dir}/tokenizer_config.json", encoding="utf-8") as f:
        config = json.load(f)
    model = tok["model"]
    assert model["type"] == "BPE", model["type"]
    by_id = {i: (t, gguf.TokenType.NORMAL) for t, i in model["vocab"].items()}
    for added in tok["added_tokens"]:
        text = added["content"]
        looks_special = text.startswith("<|") and text.endswith("|>")
        kind = gguf.TokenType.CONTROL if added["special"] or looks_special else gguf.TokenType.USER_DEFINED
        by_id[added["id"]] = (text, kind)
    size = max(by_id) + 1
    tokens = [by_id.get(i, (f"[PAD{i}]", gguf.TokenType.UNUSED)) for i in range(size)]
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    ids = {t: i for i, (t, _) in enumerate(tokens)}
    return tokens, merges, ids, config


def main():
    model_dir, out = sys.argv[1], sys.argv[2]
    tokens, merges, ids, config = vocab(model_dir)
    w = gguf.GGUFWriter(out, "qwen3")
    w.add_name("textedge-test-qwen3-random")
    w.add_context_length(CONTEXT)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_key_length(HEAD_DIM)
    w.add_value_length(HEAD_DIM)
    w.add_rope_freq_base(1e6)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2")
    w.add_token_list([t for t, _ in tokens])
    w.add_token_types([int(k) for _, k in tokens])
    w.add_token_merges(merges)
    w.add_eos_token_id(ids[config["eos_token"]])
    w.add_pad_token_id(ids[config["pad_token"]])
    w.add_bos_token_id(ids[config["pad_token"]])  # as convert_hf_to_gguf writes Qwen's
    w.add_add_bos_token(bool(config.get("add_bos_token", False)))
    w.add_chat_template(config["chat_template"])

    rng = np.random.default_rng(20261202)

    def dense(rows, cols):
        return (rng.standard_normal((rows, cols)) / np.sqrt(cols)).astype(np.float32)

    w.add_tensor("token_embd.weight", rng.standard_normal((len(tokens), N_EMBD)).astype(np.float16))
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    for i in range(N_LAYER):
        p = f"blk.{i}."
        w.add_tensor(p + "attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(p + "attn_q.weight", dense(N_HEAD * HEAD_DIM, N_EMBD))
        w.add_tensor(p + "attn_k.weight", dense(N_HEAD_KV * HEAD_DIM, N_EMBD))
        w.add_tensor(p + "attn_v.weight", dense(N_HEAD_KV * HEAD_DIM, N_EMBD))
        w.add_tensor(p + "attn_output.weight", dense(N_EMBD, N_HEAD * HEAD_DIM))
        w.add_tensor(p + "attn_q_norm.weight", np.ones(HEAD_DIM, dtype=np.float32))
        w.add_tensor(p + "attn_k_norm.weight", np.ones(HEAD_DIM, dtype=np.float32))
        w.add_tensor(p + "ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(p + "ffn_gate.weight", dense(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_up.weight", dense(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_down.weight", dense(N_EMBD, N_FF))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
