import os
def user_config_dir(appname=None, *a, **k):
    return os.path.join(os.path.expanduser("~"), ".config", appname or "")
