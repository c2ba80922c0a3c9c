"""The rules of maproom.

Entry points (REST, map actions, chat, CLI) call these; nothing else touches storage."""
