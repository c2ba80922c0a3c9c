"""The AI chat of a project (docs/chat.md): turns (`turn.py`), what they keep
(`store.py`), the built-in offline agent (`builtin/`) and the OpenAI-compatible one (`llm.py`).

The composition root (`maproom.runtime`) picks the agent the settings choose: the built-in one
unless `MAPROOM_LLM_BASE_URL` names a model.
"""
