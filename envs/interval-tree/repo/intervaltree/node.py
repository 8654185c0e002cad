"""AVL tree nodes augmented with the largest end found in each subtree.

Each node holds every interval sharing one sort key (same bounds and
closedness, different data), so the tree never has two nodes with equal keys.
The functions here take a subtree root and return the new root.
"""


class Node:
    __slots__ = ("key", "items", "left", "right", "height", "max_end")

    def __init__(self, interval):
        self.key = interval.sort_key
        self.items = [interval]
        self.left = None
        self.right = None
        self.height = 1
        self.max_end = interval.end

    @property
    def begin(self):
        return self.key[0]

    @property
    def end(self):
        return self.key[2]

    @property
    def balance(self):
        return height(self.left) - height(self.right)

    def update(self):
        """Recomputes height and max_end from the children."""
        self.height = 1 + max(height(self.left), height(self.right))
        best = self.end
        if self.left is not None and self.left.max_end > best:
            best = self.left.max_end
        if self.right is not None and self.right.max_end > best:
            best = self.right.max_end
        self.max_end = best

    def __repr__(self):
        return f"Node(key={self.key}, n={len(self.items)}, h={self.height}, max_end={self.max_end})"


def height(node):
    return 0 if node is None else node.height


def rotate_left(node):
    pivot = node.right
    node.right = pivot.left
    pivot.left = node
    node.update()
    pivot.update()
    return pivot


def rotate_right(node):
    pivot = node.left
    node.left = pivot.right
    pivot.right = node
    node.update()
    pivot.update()
    return pivot


def rebalance(node):
    node.update()
    balance = node.balance
    if balance > 1:
        if node.left.balance < 0:
            node.left = rotate_left(node.left)
        return rotate_right(node)
    if balance < -1:
        if node.right.balance > 0:
            node.right = rotate_right(node.right)
        return rotate_left(node)
    return node


def insert(node, interval):
    """Inserts interval below node. Returns (new root, whether it was added)."""
    if node is None:
        return Node(interval), True
    key = interval.sort_key
    if key == node.key:
        if interval in node.items:
            return node, False
        node.items.append(interval)
        return node, True
    if key < node.key:
        node.left, added = insert(node.left, interval)
    else:
        node.right, added = insert(node.right, interval)
    if not added:
        return node, False
    return rebalance(node), True


def pop_min(node):
    """Detaches the leftmost node. Returns (new root, detached node)."""
    if node.left is None:
        return node.right, node
    node.left, smallest = pop_min(node.left)
    return rebalance(node), smallest


def remove(node, interval):
    """Removes interval below node. Returns (new root, whether it was removed)."""
    if node is None:
        return None, False
    key = interval.sort_key
    if key < node.key:
        node.left, removed = remove(node.left, interval)
    elif key > node.key:
        node.right, removed = remove(node.right, interval)
    else:
        if interval not in node.items:
            return node, False
        node.items.remove(interval)
        if node.items:
            return node, True
        if node.left is None:
            return node.right, True
        if node.right is None:
            return node.left, True
        right, successor = pop_min(node.right)
        successor.left = node.left
        successor.right = right
        return rebalance(successor), True
    if not removed:
        return node, False
    return rebalance(node), True


def find(node, key):
    while node is not None:
        if key == node.key:
            return node
        node = node.left if key < node.key else node.right
    return None


def build_balanced(nodes, lo=0, hi=None):
    """Links a sorted list of detached nodes into a balanced subtree."""
    if hi is None:
        hi = len(nodes)
    if lo >= hi:
        return None
    mid = (lo + hi) // 2
    root = nodes[mid]
    root.left = build_balanced(nodes, lo, mid)
    root.right = build_balanced(nodes, mid + 1, hi)
    root.update()
    return root


def walk(node):
    """Yields nodes in key order without recursion."""
    stack = []
    while stack or node is not None:
        if node is not None:
            stack.append(node)
            node = node.left
        else:
            node = stack.pop()
            yield node
            node = node.right


def check(node, low=None, high=None):
    """Verifies ordering, balance, heights and max_end below node.

    Returns the subtree height; raises AssertionError on the first problem.
    """
    if node is None:
        return 0
    if low is not None and not node.key > low:
        raise AssertionError(f"{node} is out of order")
    if high is not None and not node.key < high:
        raise AssertionError(f"{node} is out of order")
    if not node.items:
        raise AssertionError(f"{node} holds no intervals")
    left = check(node.left, low, node.key)
    right = check(node.right, node.key, high)
    if abs(left - right) > 1:
        raise AssertionError(f"{node} is unbalanced")
    if node.height != 1 + max(left, right):
        raise AssertionError(f"{node} has a wrong height")
    expected = node.end
    for child in (node.left, node.right):
        if child is not None and child.max_end > expected:
            expected = child.max_end
    if node.max_end != expected:
        raise AssertionError(f"{node} has a wrong max_end")
    return node.height
