"""LLM_GEN (Putri et al. 2024, section 4.3): direct generation of csqa items from categories and concepts.

Pure functions: batches -> prompts -> messages; a reply -> accepted payloads and filtered records with
their reasons. The run engine calls them; nothing here touches the database.
"""
