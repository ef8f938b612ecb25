#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>

namespace posenc {

// Scores of a whole number n in [0, size), each computed on first use by whichever thread asks and
// kept for all (docs/ARCHITECTURE.md, Positions in practice): a batch's rows repeat the same
// distances and ids, so a score of 64 rows costs about one row's, and a preview's few tokens cost
// theirs alone. The value is the computing function's own, bit for bit; two threads asking at once
// may both compute it, and store the same bits. Memory is taken a block of 4096 values at a time,
// where a value is first asked for, so that a table asked for one token costs one block.
class LazyScores
{
public:
    explicit LazyScores(std::int64_t size)
        : m_size(std::max<std::int64_t>(size, 0))
        , m_blocks(std::make_unique<std::atomic<Block *>[]>(std::size_t((m_size + kBlock - 1) / kBlock)))
    { }
    ~LazyScores()
    {
        for (std::int64_t b = 0; b < (m_size + kBlock - 1) / kBlock; ++b)
            delete m_blocks[std::size_t(b)].load(std::memory_order_acquire);
    }
    LazyScores(const LazyScores &) = delete;
    LazyScores &operator=(const LazyScores &) = delete;

    bool covers(std::int64_t n) const { return n >= 0 && n < m_size; }

    // f(n) for n within covers(); f must give the same value for n on every call.
    template<class F>
    double at(std::int64_t n, const F &f) const
    {
        // A value's bits plus one, so that 0 (as allocated) means not yet computed.
        std::atomic<std::uint64_t> &kept = block(n / kBlock).values[std::size_t(n % kBlock)];
        if (const std::uint64_t bits = kept.load(std::memory_order_relaxed); bits != 0)
            return std::bit_cast<double>(bits - 1);
        const double value = f(n);
        kept.store(std::bit_cast<std::uint64_t>(value) + 1, std::memory_order_relaxed);
        return value;
    }

private:
    static constexpr std::int64_t kBlock = 4096;
    struct Block
    {
        std::atomic<std::uint64_t> values[kBlock] {}; // value-initialised: 0
    };

    Block &block(std::int64_t b) const
    {
        std::atomic<Block *> &slot = m_blocks[std::size_t(b)];
        Block *current = slot.load(std::memory_order_acquire);
        if (current)
            return *current;
        // Two threads may both allocate: the first to store keeps its block, the other frees its own.
        auto fresh = std::make_unique<Block>();
        if (slot.compare_exchange_strong(current, fresh.get(), std::memory_order_acq_rel, std::memory_order_acquire))
            return *fresh.release();
        return *current;
    }

    std::int64_t m_size;
    std::unique_ptr<std::atomic<Block *>[]> m_blocks;
};

} // namespace posenc
