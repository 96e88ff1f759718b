#pragma once
// SharedGate: a readers/writer lock that lets a waiting writer in before new readers.

#include <pthread.h>

namespace cantonlite::util {

// The live network's lock: the API areas hold it shared while they answer, a write holds it
// exclusively while it applies. std::shared_mutex on glibc prefers readers, so a steady stream of
// readers (a test suite polling while it writes) can starve a writer forever; this one queues new
// readers behind a waiting writer. Meets the SharedMutex requirements (std::shared_lock,
// std::unique_lock). Not recursive: a thread holding it shared must not take it shared again.
class SharedGate {
  public:
    SharedGate() {
        pthread_rwlockattr_t attr;
        pthread_rwlockattr_init(&attr);
        pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
        pthread_rwlock_init(&lock_, &attr);
        pthread_rwlockattr_destroy(&attr);
    }
    ~SharedGate() { pthread_rwlock_destroy(&lock_); }
    SharedGate(const SharedGate&) = delete;
    SharedGate& operator=(const SharedGate&) = delete;

    void lock() { pthread_rwlock_wrlock(&lock_); }
    bool try_lock() { return pthread_rwlock_trywrlock(&lock_) == 0; }
    void unlock() { pthread_rwlock_unlock(&lock_); }
    void lock_shared() { pthread_rwlock_rdlock(&lock_); }
    bool try_lock_shared() { return pthread_rwlock_tryrdlock(&lock_) == 0; }
    void unlock_shared() { pthread_rwlock_unlock(&lock_); }

  private:
    pthread_rwlock_t lock_;
};

}  // namespace cantonlite::util
