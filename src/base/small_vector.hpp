// A vector whose first N elements live inline: a call's few arguments, a loop frame's variables
// and a namespace's attributes cost no heap allocation (each was a malloc and a free per use).
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <utility>

namespace textedge::detail::jinja {

template <class T, std::size_t N>
class SmallVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() noexcept = default;
  SmallVector(std::initializer_list<T> items) { append(items.begin(), items.end()); }
  SmallVector(const SmallVector& o) { append(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      clear();
      release_heap();
      take(o);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> items) {
    assign(items.begin(), items.end());
    return *this;
  }
  ~SmallVector() {
    clear();
    release_heap();
  }

  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }

  void reserve(std::size_t n) {
    if (n > capacity_) grow(n);
  }
  template <class... A>
  T& emplace_back(A&&... a) {
    if (size_ == capacity_) return emplace_back_growing(T(std::forward<A>(a)...));
    T* slot = ::new (static_cast<void*>(data_ + size_)) T(std::forward<A>(a)...);
    ++size_;
    return *slot;
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  template <class It>
  void assign(It first, It last) {
    clear();
    append(first, last);
  }
  void clear() noexcept {
    std::destroy(begin(), end());
    size_ = 0;
  }
  void truncate(std::size_t n) noexcept {  // the first n items kept (n <= size())
    std::destroy(begin() + n, end());
    size_ = n;
  }

 private:
  template <class It>
  void append(It first, It last) {
    reserve(size_ + static_cast<std::size_t>(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  // The new item is made before the move: it may be a copy of one of the items that move.
  [[gnu::noinline]] T& emplace_back_growing(T&& item) {
    grow(capacity_ * 2);
    T* slot = ::new (static_cast<void*>(data_ + size_)) T(std::move(item));
    ++size_;
    return *slot;
  }
  T* inline_data() noexcept { return std::launder(reinterpret_cast<T*>(inline_)); }
  void grow(std::size_t n) {
    T* heap = static_cast<T*>(::operator new(n * sizeof(T)));
    std::uninitialized_move(begin(), end(), heap);
    std::destroy(begin(), end());
    release_heap();
    data_ = heap;
    capacity_ = n;
  }
  void release_heap() noexcept {
    if (data_ != inline_data()) ::operator delete(data_);
    data_ = inline_data();
    capacity_ = N;
  }
  // From a vector this one is not: its heap block is taken whole, inline items are moved.
  void take(SmallVector& o) noexcept {
    if (o.data_ != o.inline_data()) {
      data_ = o.data_;
      capacity_ = o.capacity_;
      size_ = o.size_;
      o.data_ = o.inline_data();
      o.capacity_ = N;
      o.size_ = 0;
      return;
    }
    std::uninitialized_move(o.begin(), o.end(), data_);
    size_ = o.size_;
    o.clear();
  }

  T* data_ = inline_data();
  std::size_t size_ = 0;
  std::size_t capacity_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace textedge::detail::jinja
