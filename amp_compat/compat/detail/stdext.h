// amp_compat/compat/detail/stdext.h -- MSVC's stdext array iterators, which
// MSVC declares in <iterator> (here: force-included with crt_compat.h).
//
// Contract:
//   stdext::checked_array_iterator<Ptr>: a random-access iterator over the
//     array [base, base + size) at position index (0 <= index <= size). Every
//     step, dereference and subscript is checked; one that would leave the
//     array (or dereference its end) is reported to the invalid-parameter
//     handler (crt_compat.h: by default the program stops with a message
//     naming checked_array_iterator), never a silent overrun.
//     base(), comparisons (iterators over the same array), difference.
//   stdext::make_checked_array_iterator(ptr, size, index = 0).
//   stdext::unchecked_array_iterator<Ptr> / make_unchecked_array_iterator(ptr):
//     a plain pointer wrapped as an iterator, no checks (as MSVC's).
#ifndef AMP_COMPAT_COMPAT_DETAIL_STDEXT_H
#define AMP_COMPAT_COMPAT_DETAIL_STDEXT_H

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace stdext {

template <class Ptr> class checked_array_iterator {
  static_assert(std::is_pointer<Ptr>::value, "stdext::checked_array_iterator<Ptr>: Ptr must be a pointer type");

public:
  typedef std::random_access_iterator_tag iterator_category;
  typedef typename std::iterator_traits<Ptr>::value_type value_type;
  typedef std::ptrdiff_t difference_type;
  typedef Ptr pointer;
  typedef typename std::iterator_traits<Ptr>::reference reference;

  checked_array_iterator() = default;
  checked_array_iterator(Ptr array, std::size_t size, std::size_t index = 0) : base_(array), size_(size), index_(index) {
    if (array == nullptr && size != 0) fail("a null array with a non-zero size");
    if (index > size) fail("an index past the end of the array");
  }

  Ptr base() const { return base_ + index_; }

  reference operator*() const {
    if (index_ >= size_) fail("dereferencing the end of the array");
    return base_[index_];
  }
  pointer operator->() const { return &**this; }
  reference operator[](difference_type n) const { return *(*this + n); }

  checked_array_iterator& operator+=(difference_type n) {
    const difference_type to = static_cast<difference_type>(index_) + n;
    if (to < 0 || to > static_cast<difference_type>(size_)) fail("a step outside the array");
    index_ = static_cast<std::size_t>(to);
    return *this;
  }
  checked_array_iterator& operator-=(difference_type n) { return *this += -n; }
  checked_array_iterator& operator++() { return *this += 1; }
  checked_array_iterator operator++(int) { checked_array_iterator t = *this; ++*this; return t; }
  checked_array_iterator& operator--() { return *this += -1; }
  checked_array_iterator operator--(int) { checked_array_iterator t = *this; --*this; return t; }
  friend checked_array_iterator operator+(checked_array_iterator i, difference_type n) { return i += n; }
  friend checked_array_iterator operator+(difference_type n, checked_array_iterator i) { return i += n; }
  friend checked_array_iterator operator-(checked_array_iterator i, difference_type n) { return i -= n; }
  friend difference_type operator-(const checked_array_iterator& a, const checked_array_iterator& b) {
    same_array(a, b);
    return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
  }
  friend bool operator==(const checked_array_iterator& a, const checked_array_iterator& b) { same_array(a, b); return a.index_ == b.index_; }
  friend bool operator!=(const checked_array_iterator& a, const checked_array_iterator& b) { return !(a == b); }
  friend bool operator<(const checked_array_iterator& a, const checked_array_iterator& b) { same_array(a, b); return a.index_ < b.index_; }
  friend bool operator>(const checked_array_iterator& a, const checked_array_iterator& b) { return b < a; }
  friend bool operator<=(const checked_array_iterator& a, const checked_array_iterator& b) { return !(b < a); }
  friend bool operator>=(const checked_array_iterator& a, const checked_array_iterator& b) { return !(a < b); }

private:
  [[noreturn]] static void fail(const char* what) {
    ::amp_compat_crt::invalid_parameter("stdext::checked_array_iterator", what, EINVAL);
    std::abort(); // a handler that returns cannot make the access valid
  }
  static void same_array(const checked_array_iterator& a, const checked_array_iterator& b) {
    if (a.base_ != b.base_ || a.size_ != b.size_) fail("comparing iterators over different arrays");
  }
  Ptr base_ = nullptr;
  std::size_t size_ = 0;
  std::size_t index_ = 0;
};

template <class Ptr> checked_array_iterator<Ptr> make_checked_array_iterator(Ptr array, std::size_t size, std::size_t index = 0) {
  return checked_array_iterator<Ptr>(array, size, index);
}

template <class Ptr> class unchecked_array_iterator {
public:
  typedef std::random_access_iterator_tag iterator_category;
  typedef typename std::iterator_traits<Ptr>::value_type value_type;
  typedef std::ptrdiff_t difference_type;
  typedef Ptr pointer;
  typedef typename std::iterator_traits<Ptr>::reference reference;

  unchecked_array_iterator() = default;
  explicit unchecked_array_iterator(Ptr p) : p_(p) {}
  Ptr base() const { return p_; }
  reference operator*() const { return *p_; }
  pointer operator->() const { return p_; }
  reference operator[](difference_type n) const { return p_[n]; }
  unchecked_array_iterator& operator+=(difference_type n) { p_ += n; return *this; }
  unchecked_array_iterator& operator-=(difference_type n) { p_ -= n; return *this; }
  unchecked_array_iterator& operator++() { ++p_; return *this; }
  unchecked_array_iterator operator++(int) { return unchecked_array_iterator(p_++); }
  unchecked_array_iterator& operator--() { --p_; return *this; }
  unchecked_array_iterator operator--(int) { return unchecked_array_iterator(p_--); }
  friend unchecked_array_iterator operator+(unchecked_array_iterator i, difference_type n) { return i += n; }
  friend unchecked_array_iterator operator+(difference_type n, unchecked_array_iterator i) { return i += n; }
  friend unchecked_array_iterator operator-(unchecked_array_iterator i, difference_type n) { return i -= n; }
  friend difference_type operator-(const unchecked_array_iterator& a, const unchecked_array_iterator& b) { return a.p_ - b.p_; }
  friend bool operator==(const unchecked_array_iterator& a, const unchecked_array_iterator& b) { return a.p_ == b.p_; }
  friend bool operator!=(const unchecked_array_iterator& a, const unchecked_array_iterator& b) { return a.p_ != b.p_; }
  friend bool operator<(const unchecked_array_iterator& a, const unchecked_array_iterator& b) { return a.p_ < b.p_; }
  friend bool operator>(const unchecked_array_iterator& a, const unchecked_array_iterator& b) { return a.p_ > b.p_; }
  friend bool operator<=(const unchecked_array_iterator& a, const unchecked_array_iterator& b) { return a.p_ <= b.p_; }
  friend bool operator>=(const unchecked_array_iterator& a, const unchecked_array_iterator& b) { return a.p_ >= b.p_; }

private:
  Ptr p_ = nullptr;
};

template <class Ptr> unchecked_array_iterator<Ptr> make_unchecked_array_iterator(Ptr p) {
  return unchecked_array_iterator<Ptr>(p);
}

} // namespace stdext

#endif
