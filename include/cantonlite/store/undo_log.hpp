#pragma once
// UndoLog: the inverse of every change made to the ledger since it was loaded, so that a failed
// batch, a snapshot revert and a reset are each a walk back over what changed since the mark,
// whatever the size of the ledger.

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace cantonlite::store {

// Each mutation of the store's indexes (and of the seed context's labels) records the closure
// that undoes it. rollback(mark) runs the closures recorded after `mark` newest first, which puts
// every structure back as it was when mark() was taken. Recording is off while a seed loads (a
// load that fails throws the whole store away) and on for run-time writes.
// Not thread-safe: used by the one writer, under the writers' lock.
class UndoLog {
  public:
    using Mark = std::size_t;

    [[nodiscard]] bool recording() const { return recording_; }
    void set_recording(bool on) { recording_ = on; }

    [[nodiscard]] Mark mark() const { return entries_.size(); }

    // Records `undo`, a callable run by a later rollback past this point. A no-op when not
    // recording. Move-only callables (holding map node handles) are fine.
    template <class F>
    void record(F&& undo) {
        if (!recording_) return;
        entries_.push_back(std::make_unique<Entry<std::decay_t<F>>>(std::forward<F>(undo)));
    }

    // Forgets everything recorded (the store it undoes has other contents now:
    // LedgerStore::swap_contents).
    void clear() { entries_.clear(); }

    // Undoes, newest first, everything recorded after `mark`. REQUIRES: mark <= mark().
    void rollback(Mark mark) {
        while (entries_.size() > mark) {
            std::unique_ptr<Base> e = std::move(entries_.back());
            entries_.pop_back();
            e->run();
        }
    }

    // ---- container helpers: change, and record the inverse ----

    // map[key] = value, for std::map, std::unordered_map and boost's flat maps. One lookup: a key
    // not there yet is placed where the lookup ended (a seed's labels are new keys of maps of a
    // million entries, each lookup a cache miss).
    template <class Map, class Key, class Value>
    void assign(Map& map, const Key& key, Value&& value) {
        // try_emplace leaves `value` as it was when the key is there.
        auto [it, inserted] = map.try_emplace(key, std::forward<Value>(value));
        if (inserted) {
            record([&map, k = it->first]() { map.erase(k); });
        } else {
            record([&map, k = it->first, old = std::move(it->second)]() mutable {
                map.find(k)->second = std::move(old);
            });
            it->second = std::forward<Value>(value);
        }
    }

    // Erases `key` from a map or set, if there.
    template <class Container, class Key>
    void erase(Container& c, const Key& key) {
        const auto it = c.find(key);
        if (it == c.end()) return;
        if (!recording_) {
            c.erase(it);
            return;
        }
        if constexpr (requires { c.extract(it); }) {
            record([&c, node = c.extract(it)]() mutable { c.insert(std::move(node)); });
        } else {  // an open-addressing map: it keeps no nodes to hand back
            record([&c, entry = std::move(*it)]() mutable { c.insert(std::move(entry)); });
            c.erase(it);
        }
    }

    // Inserts into a set, if not there.
    template <class Set, class Key>
    void insert(Set& set, Key&& key) {
        const auto [it, inserted] = set.insert(std::forward<Key>(key));
        if (inserted) record([&set, k = *it]() { set.erase(k); });
    }

    template <class Vector, class Value>
    void push_back(Vector& v, Value&& value) {
        v.push_back(std::forward<Value>(value));
        record([&v]() { v.pop_back(); });
    }

    // variable = value.
    template <class T, class Value>
    void set(T& variable, Value&& value) {
        record([&variable, old = variable]() mutable { variable = std::move(old); });
        variable = std::forward<Value>(value);
    }

  private:
    struct Base {
        virtual ~Base() = default;
        virtual void run() = 0;
    };
    template <class F>
    struct Entry final : Base {
        explicit Entry(F f) : fn(std::move(f)) {}
        void run() override { fn(); }
        F fn;
    };

    bool recording_ = false;
    std::vector<std::unique_ptr<Base>> entries_;
};

}  // namespace cantonlite::store
