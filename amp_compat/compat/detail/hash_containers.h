// amp_compat/compat/detail/hash_containers.h -- MSVC's pre-standard hash
// containers (<hash_set>, <hash_map>): stdext::hash_set, hash_multiset,
// hash_map, hash_multimap and hash_compare, also named in std as Visual
// Studio 2010-2013 did.
//
// Contract: the members legacy code uses (construction from a range, insert,
// erase by key or iterator, find, count, equal_range, operator[] and at for
// hash_map, size, clear, swap, ==/!=) with the standard associative
// meanings; equality of keys is MSVC's: neither compares less under the
// traits' ordering (hash_compare<K, less<K>> by default). Iterators are
// bidirectional, as MSVC's (rbegin()/crbegin() exist); iteration is in
// insertion order (MSVC's is by bucket, which no program can rely on).
// Iterators stay valid until their element is erased.
#ifndef AMP_COMPAT_COMPAT_DETAIL_HASH_CONTAINERS_H
#define AMP_COMPAT_COMPAT_DETAIL_HASH_CONTAINERS_H

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <list>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace stdext {

// The hash traits: hashes a key, and orders two keys with Pr.
template <class K, class Pr = std::less<K>>
class hash_compare {
public:
  enum { bucket_size = 1, min_buckets = 8 };  // MSVC's constants
  hash_compare() = default;
  explicit hash_compare(Pr pr) : comp(pr) {}
  std::size_t operator()(const K& k) const { return std::hash<K>()(k); }
  bool operator()(const K& a, const K& b) const { return comp(a, b); }

protected:
  Pr comp;
};

namespace hash_detail {

template <class K, class Tr>
struct hasher {
  Tr tr;
  std::size_t operator()(const K& k) const { return tr(k); }
};
template <class K, class Tr>
struct equal {
  Tr tr;
  bool operator()(const K& a, const K& b) const { return !tr(a, b) && !tr(b, a); }
};

struct key_of_set {
  template <class V>
  static const V& get(const V& v) { return v; }
};
struct key_of_map {
  template <class V>
  static const typename V::first_type& get(const V& v) { return v.first; }
};

// Elements in a list (stable, bidirectional), found through a hash index.
template <class K, class V, class KeyOf, class Tr, class Alloc, bool Multi, bool ConstIter>
class table {
  using list_t = std::list<V, typename std::allocator_traits<Alloc>::template rebind_alloc<V>>;
  using index_t = std::unordered_multimap<K, typename list_t::iterator, hasher<K, Tr>, equal<K, Tr>>;

public:
  typedef K key_type;
  typedef V value_type;
  typedef Tr key_compare;
  typedef Alloc allocator_type;
  typedef std::size_t size_type;
  typedef std::ptrdiff_t difference_type;
  typedef V& reference;
  typedef const V& const_reference;
  typedef typename list_t::const_iterator const_iterator;
  typedef typename std::conditional<ConstIter, const_iterator, typename list_t::iterator>::type iterator;
  typedef std::reverse_iterator<iterator> reverse_iterator;
  typedef std::reverse_iterator<const_iterator> const_reverse_iterator;
  typedef typename std::conditional<Multi, iterator, std::pair<iterator, bool>>::type insert_result;

  table() = default;
  explicit table(const Tr& tr) : index_(0, hasher<K, Tr>{tr}, equal<K, Tr>{tr}) {}
  template <class It>
  table(It first, It last) { insert(first, last); }
  template <class It>
  table(It first, It last, const Tr& tr) : table(tr) { insert(first, last); }
  table(std::initializer_list<V> il) { insert(il.begin(), il.end()); }
  table(const table& o) { insert(o.begin(), o.end()); }
  table(table&&) = default;
  table& operator=(const table& o) {
    if (this != &o) { clear(); insert(o.begin(), o.end()); }
    return *this;
  }
  table& operator=(table&&) = default;

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  const_iterator cbegin() const { return items_.cbegin(); }
  const_iterator cend() const { return items_.cend(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  const_reverse_iterator crbegin() const { return rbegin(); }
  const_reverse_iterator crend() const { return rend(); }

  size_type size() const { return items_.size(); }
  size_type max_size() const { return items_.max_size(); }
  bool empty() const { return items_.empty(); }
  void clear() { index_.clear(); items_.clear(); }
  void swap(table& o) { items_.swap(o.items_); index_.swap(o.index_); }
  key_compare key_comp() const { return index_.key_eq().tr; }
  allocator_type get_allocator() const { return allocator_type(); }

  insert_result insert(const V& v) { return insert_one(v, std::integral_constant<bool, Multi>()); }
  iterator insert(const_iterator, const V& v) { return as_iter(insert(v)); }
  template <class It>
  void insert(It first, It last) {
    for (; first != last; ++first) insert(static_cast<const V&>(*first));
  }
  void insert(std::initializer_list<V> il) { insert(il.begin(), il.end()); }
  template <class... A>
  insert_result emplace(A&&... a) { return insert(V(std::forward<A>(a)...)); }

  iterator erase(const_iterator pos) {
    auto r = index_.equal_range(KeyOf::get(*pos));
    for (auto i = r.first; i != r.second; ++i)
      if (const_iterator(i->second) == pos) { index_.erase(i); break; }
    return items_.erase(pos);
  }
  iterator erase(const_iterator first, const_iterator last) {
    while (first != last) first = erase(first);
    return items_.erase(last, last);
  }
  size_type erase(const K& k) {
    auto r = index_.equal_range(k);
    size_type n = 0;
    for (auto i = r.first; i != r.second; ++i, ++n) items_.erase(i->second);
    index_.erase(r.first, r.second);
    return n;
  }

  iterator find(const K& k) {
    auto i = index_.find(k);
    return i == index_.end() ? end() : iterator(i->second);
  }
  const_iterator find(const K& k) const {
    auto i = index_.find(k);
    return i == index_.end() ? end() : const_iterator(i->second);
  }
  size_type count(const K& k) const { return index_.count(k); }
  // Equal keys are adjacent in the list only when inserted together; the
  // range is [first found, one past it] for a unique table.
  std::pair<iterator, iterator> equal_range(const K& k) {
    iterator f = find(k);
    return {f, f == end() ? f : std::next(f)};
  }
  iterator lower_bound(const K& k) { return find(k); }
  iterator upper_bound(const K& k) { return equal_range(k).second; }

  bool operator==(const table& o) const {
    if (size() != o.size()) return false;
    for (const V& v : items_) {
      auto f = o.find(KeyOf::get(v));
      if (f == o.end() || !(*f == v)) return false;
    }
    return true;
  }
  bool operator!=(const table& o) const { return !(*this == o); }

protected:
  // hash_map's operator[] and at
  typename list_t::iterator find_mutable(const K& k) {
    auto i = index_.find(k);
    return i == index_.end() ? items_.end() : i->second;
  }
  typename list_t::iterator items_end() { return items_.end(); }
  typename list_t::iterator add(const V& v) {
    items_.push_back(v);
    auto it = std::prev(items_.end());
    index_.emplace(KeyOf::get(*it), it);
    return it;
  }

private:
  std::pair<iterator, bool> insert_one(const V& v, std::false_type) {
    auto i = index_.find(KeyOf::get(v));
    if (i != index_.end()) return {iterator(i->second), false};
    return {iterator(add(v)), true};
  }
  iterator insert_one(const V& v, std::true_type) { return iterator(add(v)); }
  static iterator as_iter(const std::pair<iterator, bool>& r) { return r.first; }
  static iterator as_iter(iterator r) { return r; }

  list_t items_;
  index_t index_;
};

}  // namespace hash_detail

template <class K, class Tr = hash_compare<K, std::less<K>>, class Alloc = std::allocator<K>>
class hash_set : public hash_detail::table<K, K, hash_detail::key_of_set, Tr, Alloc, false, true> {
  using base = hash_detail::table<K, K, hash_detail::key_of_set, Tr, Alloc, false, true>;

public:
  using base::base;
  hash_set() = default;
};

template <class K, class Tr = hash_compare<K, std::less<K>>, class Alloc = std::allocator<K>>
class hash_multiset : public hash_detail::table<K, K, hash_detail::key_of_set, Tr, Alloc, true, true> {
  using base = hash_detail::table<K, K, hash_detail::key_of_set, Tr, Alloc, true, true>;

public:
  using base::base;
  hash_multiset() = default;
};

template <class K, class T, class Tr = hash_compare<K, std::less<K>>,
          class Alloc = std::allocator<std::pair<const K, T>>>
class hash_map
    : public hash_detail::table<K, std::pair<const K, T>, hash_detail::key_of_map, Tr, Alloc, false, false> {
  using base = hash_detail::table<K, std::pair<const K, T>, hash_detail::key_of_map, Tr, Alloc, false, false>;

public:
  typedef T mapped_type;
  typedef T data_type;
  using base::base;
  hash_map() = default;
  T& operator[](const K& k) {
    auto i = this->find_mutable(k);
    if (i == this->items_end()) i = this->add(std::pair<const K, T>(k, T()));
    return i->second;
  }
  T& at(const K& k) {
    auto i = this->find_mutable(k);
    if (i == this->items_end()) throw std::out_of_range("invalid hash_map<K, T> key");
    return i->second;
  }
  const T& at(const K& k) const { return const_cast<hash_map*>(this)->at(k); }
};

template <class K, class T, class Tr = hash_compare<K, std::less<K>>,
          class Alloc = std::allocator<std::pair<const K, T>>>
class hash_multimap
    : public hash_detail::table<K, std::pair<const K, T>, hash_detail::key_of_map, Tr, Alloc, true, false> {
  using base = hash_detail::table<K, std::pair<const K, T>, hash_detail::key_of_map, Tr, Alloc, true, false>;

public:
  typedef T mapped_type;
  typedef T data_type;
  using base::base;
  hash_multimap() = default;
};

}  // namespace stdext

// Visual Studio 2010-2013 also named them in std.
namespace std {
using stdext::hash_compare;
using stdext::hash_map;
using stdext::hash_multimap;
using stdext::hash_multiset;
using stdext::hash_set;
}  // namespace std

#endif
