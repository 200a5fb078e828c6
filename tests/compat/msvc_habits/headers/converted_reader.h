// Included by converted_reference_header.cpp with a Windows path (backslashes),
// as Microsoft's conformance suite includes its CustomIterators.h: the
// constructor takes a non-const reference to a const_iterator, and the
// caller passes an iterator (a conversion's temporary; MSVC's C4239
// extension binds it).
#pragma once
#include <vector>

template <class T> class reader {
  typename std::vector<T>::const_iterator at_;

public:
  explicit reader(typename std::vector<T>::const_iterator& at) : at_(at) {}
  T operator*() const { return *at_; }
};

template <class T> reader<T> first_of(std::vector<T>& v) {
  auto it = v.begin(); // an iterator, not a const_iterator
  return reader<T>(it);
}
