package freeport

// Persistent (immutable, path-copying) collections. A State is a value: Apply
// never changes the State it is given, it returns a new one that shares every
// unchanged node with the old. These three small structures make that cheap:
// an update copies one root-to-leaf path, never the whole collection.

// vecBits is the branching factor of pvec, as a power of two.
const (
	vecBits  = 5
	vecWidth = 1 << vecBits
	vecMask  = vecWidth - 1
)

// pvec is a persistent vector indexed from 0.
type pvec[T any] struct {
	root  *vnode[T]
	n     int
	shift uint // 0 while the root is a leaf
}

type vnode[T any] struct {
	kids []*vnode[T]
	vals []T
}

// Len returns the number of elements.
func (v pvec[T]) Len() int { return v.n }

// Get returns element i; i must be in range.
func (v pvec[T]) Get(i int) T {
	node := v.root
	for s := v.shift; s > 0; s -= vecBits {
		node = node.kids[(i>>s)&vecMask]
	}
	return node.vals[i&vecMask]
}

// Set returns a vector with element i replaced by x; i must be in range.
func (v pvec[T]) Set(i int, x T) pvec[T] {
	v.root = vset(v.root, v.shift, i, x)
	return v
}

// Append returns a vector with x added at the end.
func (v pvec[T]) Append(x T) pvec[T] {
	if v.root == nil {
		v.root = &vnode[T]{}
	} else if v.n == 1<<(v.shift+vecBits) {
		v.root = &vnode[T]{kids: []*vnode[T]{v.root}}
		v.shift += vecBits
	}
	v.root = vset(v.root, v.shift, v.n, x)
	v.n++
	return v
}

func vset[T any](node *vnode[T], shift uint, i int, x T) *vnode[T] {
	c := &vnode[T]{}
	if node != nil {
		*c = *node
	}
	if shift == 0 {
		j := i & vecMask
		vals := make([]T, max(len(c.vals), j+1))
		copy(vals, c.vals)
		vals[j] = x
		c.vals = vals
		return c
	}
	j := (i >> shift) & vecMask
	kids := make([]*vnode[T], max(len(c.kids), j+1))
	copy(kids, c.kids)
	kids[j] = vset(kids[j], shift-vecBits, i, x)
	c.kids = kids
	return c
}

// pmap is a persistent hash map from string keys: a hash trie of 16-way
// nodes with collision buckets at full depth.
type pmap[V any] struct {
	root *hnode[V]
	n    int
}

type hentry[V any] struct {
	hash uint64
	key  string
	val  V
}

type hnode[V any] struct {
	kids    [16]*hnode[V]
	entries []hentry[V] // non-nil only on a leaf
	leaf    bool
}

func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	// finalize (splitmix64) so that the low nibbles are well mixed
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// Len returns the number of keys.
func (m pmap[V]) Len() int { return m.n }

// Get returns the value under key and whether it is present.
func (m pmap[V]) Get(key string) (V, bool) {
	h := hashString(key)
	node := m.root
	for shift := uint(0); node != nil; shift += 4 {
		if node.leaf {
			for _, e := range node.entries {
				if e.key == key {
					return e.val, true
				}
			}
			break
		}
		node = node.kids[(h>>shift)&15]
	}
	var zero V
	return zero, false
}

// Put returns a map with key bound to val.
func (m pmap[V]) Put(key string, val V) pmap[V] {
	added := false
	m.root = hput(m.root, 0, hentry[V]{hash: hashString(key), key: key, val: val}, &added)
	if added {
		m.n++
	}
	return m
}

func hput[V any](node *hnode[V], shift uint, e hentry[V], added *bool) *hnode[V] {
	if node == nil {
		*added = true
		return &hnode[V]{leaf: true, entries: []hentry[V]{e}}
	}
	if node.leaf {
		for i, old := range node.entries {
			if old.key == e.key {
				c := &hnode[V]{leaf: true, entries: append([]hentry[V](nil), node.entries...)}
				c.entries[i] = e
				return c
			}
		}
		if shift >= 64 || node.entries[0].hash == e.hash {
			*added = true
			return &hnode[V]{leaf: true, entries: append(append([]hentry[V](nil), node.entries...), e)}
		}
		// Split: push the existing entries one level down, then insert.
		b := &hnode[V]{}
		for _, old := range node.entries {
			var ignored bool
			j := (old.hash >> shift) & 15
			b.kids[j] = hput(b.kids[j], shift+4, old, &ignored)
		}
		node = b
	}
	c := *node
	j := (e.hash >> shift) & 15
	c.kids[j] = hput(c.kids[j], shift+4, e, added)
	return &c
}

// expiryKey orders open Exchanges by deadline, then by creation.
type expiryKey struct {
	at  int64
	ord int
}

func (a expiryKey) less(b expiryKey) bool {
	return a.at < b.at || a.at == b.at && a.ord < b.ord
}

// tnode is a node of a persistent treap keyed by expiryKey. Priorities are
// a hash of the key, so the shape is a pure function of the key set.
type tnode struct {
	key  expiryKey
	prio uint64
	l, r *tnode
}

func keyPrio(k expiryKey) uint64 {
	x := uint64(k.at)*0x9e3779b97f4a7c15 ^ uint64(k.ord)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// tsplit splits t into keys less than k and keys not less than k.
func tsplit(t *tnode, k expiryKey) (*tnode, *tnode) {
	if t == nil {
		return nil, nil
	}
	c := *t
	if t.key.less(k) {
		c.r, t = tsplit(t.r, k)
		return &c, t
	}
	t, c.l = tsplit(t.l, k)
	return t, &c
}

func tmerge(a, b *tnode) *tnode {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if a.prio > b.prio {
		c := *a
		c.r = tmerge(a.r, b)
		return &c
	}
	c := *b
	c.l = tmerge(a, b.l)
	return &c
}

func tinsert(t *tnode, k expiryKey) *tnode {
	l, r := tsplit(t, k)
	return tmerge(tmerge(l, &tnode{key: k, prio: keyPrio(k)}), r)
}

func tdelete(t *tnode, k expiryKey) *tnode {
	l, r := tsplit(t, k)
	_, r = tsplit(r, expiryKey{at: k.at, ord: k.ord + 1})
	return tmerge(l, r)
}

// tdue appends, in order, at most limit keys whose deadline is at or before
// now.
func tdue(t *tnode, now int64, limit int, out []expiryKey) []expiryKey {
	if t == nil || len(out) >= limit {
		return out
	}
	out = tdue(t.l, now, limit, out)
	if len(out) >= limit || t.key.at > now {
		return out
	}
	out = append(out, t.key)
	return tdue(t.r, now, limit, out)
}

func tcount(t *tnode) int {
	if t == nil {
		return 0
	}
	return 1 + tcount(t.l) + tcount(t.r)
}
