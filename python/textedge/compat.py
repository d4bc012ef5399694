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

    def __init__(self, tokenizer: _Tokenizer, chat: Optional[ChatTemplate] = None, name_or_path: str = "",
                 config: Optional[Dict[str, Any]] = None) -> None:
        self._tok = tokenizer
        self._chat = chat
        self.name_or_path = name_or_path
        config = config or {}
        self.model_max_length: int = int(config.get("model_max_length", int(1e30)))  # transformers' VERY_LARGE_INTEGER
        self.padding_side: str = config.get("padding_side") or "right"
        self.truncation_side: str = config.get("truncation_side") or "right"
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
    def encode(self, text: str, text_pair: Optional[str] = None, add_special_tokens: bool = True,
               padding: Union[bool, str] = False, truncation: Union[bool, str, None] = None,
               max_length: Optional[int] = None, stride: int = 0, padding_side: Optional[str] = None,
               return_tensors: Optional[str] = None, **kwargs: Any) -> Any:
        """transformers' encode: __call__'s input_ids."""
        return self(text, text_pair, add_special_tokens=add_special_tokens, padding=padding, truncation=truncation,
                    max_length=max_length, stride=stride, padding_side=padding_side, return_tensors=return_tensors,
                    return_attention_mask=False, **kwargs)["input_ids"]

    def __call__(self, text: Union[str, Sequence[str]], text_pair: Any = None, add_special_tokens: bool = True,
                 padding: Union[bool, str] = False, truncation: Union[bool, str, None] = None,
                 max_length: Optional[int] = None, stride: int = 0, is_split_into_words: bool = False,
                 pad_to_multiple_of: Optional[int] = None, padding_side: Optional[str] = None,
                 return_tensors: Optional[str] = None, return_token_type_ids: Optional[bool] = None,
                 return_attention_mask: Optional[bool] = None, return_overflowing_tokens: bool = False,
                 return_special_tokens_mask: bool = False, return_offsets_mapping: bool = False,
                 return_length: bool = False, verbose: bool = True, **kwargs: Any) -> BatchEncoding:
        """transformers' __call__ for single sequences: truncation and padding as its fast
        tokenizers do them (tokenizers' truncation keeps the special tokens the post-processor
        adds; padding with pad_token on padding_side), return_tensors "np" or "pt"."""
        for name, value in (("text_pair", text_pair), ("stride", stride), ("is_split_into_words", is_split_into_words),
                            ("return_overflowing_tokens", return_overflowing_tokens),
                            ("return_special_tokens_mask", return_special_tokens_mask),
                            ("return_offsets_mapping", return_offsets_mapping)):
            if value:
                raise NotImplementedError(f"{name} is not supported (textedge encodes single sequences, without offsets)")
        if kwargs.pop("split_special_tokens", False):
            raise NotImplementedError("split_special_tokens=True is not supported")
        if kwargs:
            raise TypeError(f"unexpected keyword argument {next(iter(kwargs))!r}")
        single = isinstance(text, str)
        texts: List[str] = [text] if isinstance(text, str) else list(text)
        truncate_to, pad_to = self._lengths(padding, truncation, max_length)
        if truncate_to is None:
            batch = [e.ids for e in self._tok.encode_batch(texts, add_special_tokens=add_special_tokens)]
        else:
            batch = [self._truncated(t, add_special_tokens, truncate_to) for t in texts]
        masks = [[1] * len(ids) for ids in batch]
        if pad_to is not None:
            self._pad(batch, masks, pad_to, pad_to_multiple_of, padding_side or self.padding_side)
        out = BatchEncoding(input_ids=batch)
        if return_token_type_ids:
            out["token_type_ids"] = [[0] * len(ids) for ids in batch]
        if return_attention_mask is not False:
            out["attention_mask"] = masks
        if return_length:
            out["length"] = [len(ids) for ids in batch]
        if return_tensors is not None:
            return BatchEncoding({k: self._tensor(v, return_tensors) for k, v in out.items()})
        if single:
            return BatchEncoding({k: v[0] for k, v in out.items()})
        return out

    # transformers' LARGE_INTEGER: a model_max_length above it means "no limit".
    _NO_LIMIT = int(1e20)

    def _lengths(self, padding: Union[bool, str], truncation: Union[bool, str, None],
                 max_length: Optional[int]) -> "tuple[Optional[int], Optional[int | str]]":
        """(truncate to, pad to: a length, "longest" or None), as transformers'
        _get_padding_truncation_strategies reads its arguments."""
        if padding is True or padding == "longest":
            pad: Optional[str] = "longest"
        elif padding is False or padding in ("do_not_pad", None):
            pad = None
        elif padding == "max_length":
            pad = "max_length"
        else:
            raise ValueError(f"padding={padding!r}: expected True, False, 'longest', 'max_length' or 'do_not_pad'")
        if truncation is None and max_length is not None and pad is None:
            truncation = True  # transformers: max_length alone truncates
        if truncation is True or truncation in ("longest_first", "only_first"):
            truncate = True
        elif truncation is False or truncation in (None, "do_not_truncate"):
            truncate = False
        elif truncation == "only_second":
            raise NotImplementedError("truncation='only_second' needs pairs, which textedge does not encode")
        else:
            raise ValueError(f"truncation={truncation!r}: expected True, False, 'longest_first', 'only_first' or 'do_not_truncate'")
        limit = max_length
        if limit is None and self.model_max_length < self._NO_LIMIT:
            limit = self.model_max_length
        if limit is not None and limit < 0:
            raise ValueError(f"max_length={limit} must not be negative")
        truncate_to = limit if truncate else None
        if pad == "max_length":
            pad_to: Optional[Union[int, str]] = limit  # None: no length known, no padding (transformers warns)
        else:
            pad_to = pad
        if pad_to is not None and self.pad_token_id is None:
            raise ValueError("Asking to pad but the tokenizer does not have a padding token: set tokenizer.pad_token "
                             "(for example to tokenizer.eos_token)")
        return truncate_to, pad_to

    def _truncated(self, text: str, add_special_tokens: bool, limit: int) -> List[int]:
        """tokenizers' truncation: the text's ids cut to fit limit less the special tokens the
        post-processor adds, which stay."""
        full = self._tok.encode(text, add_special_tokens=add_special_tokens).ids
        if len(full) <= limit:
            return full
        content = self._tok.encode(text, add_special_tokens=False).ids if add_special_tokens else full
        start = next((p for p in range(len(full) - len(content) + 1) if full[p:p + len(content)] == content), None)
        if start is None:
            raise NotImplementedError("truncation: this tokenizer's post-processor does not wrap the text's ids")
        prefix, suffix = full[:start], full[start + len(content):]
        room = limit - len(prefix) - len(suffix)
        if room < 0:
            raise ValueError(f"max_length={limit} is shorter than the {len(prefix) + len(suffix)} special tokens added")
        kept = content[:room] if self.truncation_side == "right" else content[len(content) - room:]
        return prefix + kept + suffix

    def _pad(self, batch: List[List[int]], masks: List[List[int]], pad_to: Union[int, str],
             multiple_of: Optional[int], side: str) -> None:
        if side not in ("right", "left"):
            raise ValueError(f"padding_side={side!r}: expected 'right' or 'left'")
        length = max((len(ids) for ids in batch), default=0) if pad_to == "longest" else int(pad_to)
        if multiple_of:
            length = -(-length // multiple_of) * multiple_of
        pad_id = self.pad_token_id
        assert pad_id is not None
        for ids, mask in zip(batch, masks):
            n = length - len(ids)
            if n <= 0:
                continue
            if side == "right":
                ids.extend([pad_id] * n)
                mask.extend([0] * n)
            else:
                ids[:0] = [pad_id] * n
                mask[:0] = [0] * n

    @staticmethod
    def _tensor(rows: List[Any], kind: str) -> Any:
        if rows and isinstance(rows[0], list) and len({len(r) for r in rows}) > 1:
            raise ValueError("Unable to create tensor: the sequences have different lengths; "
                             "use padding=True or truncation=True")
        if kind == "np":
            import numpy as np
            return np.array(rows, dtype=np.int64)
        if kind == "pt":
            import torch  # type: ignore[import]
            return torch.tensor(rows, dtype=torch.int64)
        raise NotImplementedError(f"return_tensors={kind!r}: textedge returns 'np' or 'pt' tensors")

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
