"""The tutorial's task type: one sentence, one sentiment label (docs/tutorial/task-type.md).

It lives in the tests and is registered only there (config/settings/test.py lists its plugin in
GOTONG_EXTRA_TASK_TYPES), so every test that runs over the registered task types runs over it too.
"""
