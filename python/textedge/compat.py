"""A transformers-style tokenizer over textedge: the methods vLLM's TokenizerLike protocol and
SGLang's tokenizer manager and detokenizer call, with transformers' semantics and defaults
(docs/python.md lists each method and which engine calls it).

    tok = textedge.compat.Tokenizer.from_pretrained("models/qwen3")
    ids = tok.apply_chat_template(messages, add_generation_prompt=True)   # tokenize=True, as transformers
    text = tok.decode(ids, skip_special_tokens=True)
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from ._core import ChatTemplate
from ._core import Tokenizer as _Tokenizer

Ids = Sequence[int]


class BatchEncoding(dict):  # type: ignore[type-arg]
    """transformers' BatchEncoding, as far as engines read it: a dict with input_ids and
    attention_mask, whose keys are also attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(name) from e


class Tokenizer:
    """transformers' PreTrainedTokenizerFast surface on textedge (one model directory)."""

    is_fast = True
    padding_side = "right"
    truncation_side = "right"

    def __init__(self, tokenizer: _Tokenizer, chat: Optional[ChatTemplate] = None, name_or_path: str = "",
                 config: Optional[Dict[str, Any]] = None) -> None:
        self._tok = tokenizer
        self._chat = chat
        self.name_or_path = name_or_path
        config = config or {}
        self.model_max_length: int = int(config.get("model_max_length", 1 << 60))
        special = tokenizer.special_tokens_map
        self.bos_token: Optional[str] = special.get("bos_token")
        self.eos_token: Optional[str] = special.get("eos_token")
        self.unk_token: Optional[str] = special.get("unk_token")
        self.pad_token: Optional[str] = special.get("pad_token")
        self.additional_special_tokens: List[str] = list(chat.additional_special_tokens) if chat else []
        from_config = dict(chat.special_tokens) if chat else {}
        self.sep_token: Optional[str] = from_config.get("sep_token")
        self.cls_token: Optional[str] = from_config.get("cls_token")
        self.mask_token: Optional[str] = from_config.get("mask_token")
        self._vocab: Optional[Dict[str, int]] = None

    @classmethod
    def from_pretrained(cls, model_dir: str, **_: Any) -> "Tokenizer":
        """A local model directory: tokenizer.json, tokenizer_config.json and the chat template."""
        config: Dict[str, Any] = {}
        path = os.path.join(model_dir, "tokenizer_config.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                config = json.load(f)
        return cls(_Tokenizer.from_pretrained(model_dir), ChatTemplate.from_pretrained(model_dir), model_dir, config)

    # ---- special tokens ----
    def _id(self, token: Optional[str]) -> Optional[int]:
        return None if token is None else self._tok.token_to_id(token)

    @property
    def bos_token_id(self) -> Optional[int]:
        return self._id(self.bos_token)

    @property
    def eos_token_id(self) -> Optional[int]:
        return self._id(self.eos_token)

    @property
    def pad_token_id(self) -> Optional[int]:
        return self._id(self.pad_token)

    @property
    def unk_token_id(self) -> Optional[int]:
        return self._id(self.unk_token)

    @property
    def all_special_tokens(self) -> List[str]:
        """bos, eos, unk, sep, pad, cls, mask (those set) then the additional special tokens,
        without repeats (transformers' order)."""
        out: List[str] = []
        for t in [self.bos_token, self.eos_token, self.unk_token, self.sep_token, self.pad_token, self.cls_token,
                  self.mask_token, *self.additional_special_tokens]:
            if t is not None and t not in out:
                out.append(t)
        return out

    @property
    def all_special_ids(self) -> List[int]:
        return [i for i in (self._tok.token_to_id(t) for t in self.all_special_tokens) if i is not None]

    @property
    def special_tokens_map(self) -> Dict[str, Any]:
        out: Dict[str, Any] = dict(self._tok.special_tokens_map)
        if self.additional_special_tokens:
            out["additional_special_tokens"] = list(self.additional_special_tokens)
        return out

    # ---- vocabulary ----
    def get_vocab(self) -> Dict[str, int]:
        if self._vocab is None:
            self._vocab = self._tok.get_vocab(with_added_tokens=True)
        return dict(self._vocab)

    def get_added_vocab(self) -> Dict[str, int]:
        return {t.content: i for i, t in self._tok.get_added_tokens_decoder().items()}

    @property
    def added_tokens_decoder(self) -> Dict[int, Any]:
        return self._tok.get_added_tokens_decoder()

    @property
    def vocab_size(self) -> int:
        """The base vocabulary, without added tokens (transformers' vocab_size)."""
        return self._tok.get_vocab_size(with_added_tokens=False)

    def __len__(self) -> int:
        return self._tok.get_vocab_size(with_added_tokens=True)

    @property
    def max_token_id(self) -> int:
        return self._tok.get_vocab_size(with_added_tokens=True) - 1

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        if pair:
            raise NotImplementedError("textedge encodes single sequences")
        return len(self._tok.encode("", add_special_tokens=True).ids)

    # ---- text <-> ids ----
    def encode(self, text: str, add_special_tokens: bool = True, **_: Any) -> List[int]:
        return self._tok.encode(text, add_special_tokens=add_special_tokens).ids

    def __call__(self, text: Union[str, List[str]], add_special_tokens: bool = True, **_: Any) -> BatchEncoding:
        if isinstance(text, str):
            ids = self.encode(text, add_special_tokens)
            return BatchEncoding(input_ids=ids, attention_mask=[1] * len(ids))
        batch = [e.ids for e in self._tok.encode_batch(list(text), add_special_tokens=add_special_tokens)]
        return BatchEncoding(input_ids=batch, attention_mask=[[1] * len(ids) for ids in batch])

    def decode(self, token_ids: Union[int, Ids], skip_special_tokens: bool = False, **_: Any) -> str:
        """transformers' default keeps special tokens (tokenizers' skips them)."""
        if isinstance(token_ids, int):
            token_ids = [token_ids]
        return self._tok.decode(token_ids, skip_special_tokens=skip_special_tokens)

    def batch_decode(self, sequences: Iterable[Ids], skip_special_tokens: bool = False,
                     spaces_between_special_tokens: bool = True, **_: Any) -> List[str]:
        """spaces_between_special_tokens only matters to transformers' slow tokenizers; a fast
        tokenizer (and textedge) decodes as tokenizer.json says."""
        return self._tok.decode_batch(list(sequences), skip_special_tokens=skip_special_tokens)

    def convert_ids_to_tokens(self, ids: Union[int, Ids], skip_special_tokens: bool = False) -> Any:
        if isinstance(ids, int):
            return self._tok.id_to_token(ids)
        out = []
        for i in ids:
            if skip_special_tokens and self._tok.is_special(i):
                continue
            out.append(self._tok.id_to_token(i))
        return out

    def convert_tokens_to_ids(self, tokens: Union[str, Sequence[str]]) -> Any:
        if isinstance(tokens, str):
            i = self._tok.token_to_id(tokens)
            return self.unk_token_id if i is None else i
        return [self.convert_tokens_to_ids(t) for t in tokens]

    def convert_tokens_to_string(self, tokens: Sequence[str]) -> str:
        ids = [self._tok.token_to_id(t) for t in tokens]
        return self._tok.decode([i for i in ids if i is not None], skip_special_tokens=False)

    # ---- chat ----
    def apply_chat_template(self, conversation: Any, tools: Any = None, documents: Any = None,
                            add_generation_prompt: bool = False, continue_final_message: bool = False,
                            tokenize: bool = True, **kwargs: Any) -> Any:
        """transformers' signature and defaults (tokenize=True returns ids). Extra keyword
        arguments are template variables; transformers' own options (return_dict, padding,
        truncation, max_length, return_tensors, chat_template) are not supported."""
        for option in ("return_dict", "padding", "truncation", "max_length", "return_tensors", "chat_template"):
            if kwargs.pop(option, None) not in (None, False):
                raise NotImplementedError(f"apply_chat_template: {option} is not supported")
        kwargs.pop("tokenizer_kwargs", None)
        if self._chat is None:
            raise ValueError("this tokenizer has no chat template")
        return self._chat.apply_chat_template(conversation, tools=tools, documents=documents,
                                              add_generation_prompt=add_generation_prompt,
                                              continue_final_message=continue_final_message, tokenize=tokenize, **kwargs)
