def get_dockerfile_env(*a, **k): raise NotImplementedError("stub")
