"""The built-in chat agent: plain English map commands, offline (see `agent.py`)."""

from maproom.domain.chat.builtin.agent import BuiltinAgent

__all__ = ["BuiltinAgent"]
