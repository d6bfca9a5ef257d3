"""The child side of the recorder: imports one module of the repository in the sandbox.

It runs in a throwaway process (`record_agents.py --child`, started by the parent with the
venv's interpreter, `-I -S`) and uses the standard library only. `main.child_main` confines the
process (guards), replaces the frameworks and every other third-party import by stubs (stubs,
frameworks, importer), imports the module, and writes what the agents built during the import
hold (collect).
"""
