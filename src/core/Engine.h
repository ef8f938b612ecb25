#pragma once

#include "Block.h"
#include "DropoutMask.h"
#include "Embeddings.h"
#include "Params.h"
#include "PositionTerm.h"
#include "Quantity.h"
#include "WorkProgress.h"

#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <typeindex>

namespace posenc {

struct ComputeOptions
{
    int threads = 0; // 0: the machine's; 1: serial in the caller
    const std::atomic<bool> *cancel = nullptr; // polled between tiles
    WorkProgress *progress = nullptr; // the rows done, where the work counts them (statistics, tables)
};

class ModelInput;

// Computes any block of any quantity for one valid Params (docs/ARCHITECTURE.md, "The engine of
// table sources"). Each quantity's row (Quantities) fills its blocks from sources the engine
// builds on first use and keeps: the position term, the embeddings, the dropout mask, the model
// input, or any family's own. Immutable once built, so one engine serves any number of threads.
// Every cell is a pure function of the parameters and its (row, column), so a block computed
// alone, serially or threaded, equals the same cells of the whole table bit for bit.
class Engine
{
public:
    // Precondition: params.validate() is empty.
    explicit Engine(Params params);
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    const Params &params() const { return m_params; }
    Shape shape(Quantity quantity) const { return Quantities::shape(quantity, m_params); }

    // The source of type `Source` for these parameters, built on first use from the engine
    // (a constructor taking `const Engine &`) or from the parameters (one taking `const Params &`),
    // and kept while the engine lives. Safe from any thread.
    template<typename Source> const Source &source() const;

    const PositionTerm &positionTerm() const { return source<PositionTerm>(); }
    const Embeddings &embeddings() const { return source<Embeddings>(); }
    const DropoutMask &dropoutMask() const { return source<DropoutMask>(); }
    const ModelInput &modelInput() const;

    // The error that refuses `block` of `quantity` (a quantity these parameters lack, outside the
    // table, or over the memory budget with cells and GiB), or nothing when it can be computed.
    std::optional<QString> check(Quantity quantity, const Block &block) const;

    // One block in the calling thread. Precondition: check() passed; out is block-sized.
    void computeBlock(Quantity quantity, const Block &block, BlockRef out) const;
    // The block split into row tiles computed in parallel; false when cancelled (then `out`
    // is partly written and must not be shown).
    bool compute(Quantity quantity, const Block &block, BlockRef out, const ComputeOptions &options = {}) const;
    // A new matrix holding the block, or nothing when cancelled.
    std::optional<RowMatrixXf> table(Quantity quantity, const Block &block, const ComputeOptions &options = {}) const;

    // A block of the model input split into its two parts: the embedding part (s*E, zero in
    // the position-only columns of concat) and the position part (zero in the E-only
    // columns). X is their sum.
    void inputParts(const Block &block, BlockRef embeddingPart, BlockRef positionalPart) const;

private:
    Params m_params;
    mutable std::mutex m_sourcesMutex;
    mutable std::map<std::type_index, std::shared_ptr<const void>> m_sources;
};

template<typename Source> const Source &Engine::source() const
{
    const std::type_index key(typeid(Source));
    {
        const std::lock_guard lock(m_sourcesMutex);
        if (const auto found = m_sources.find(key); found != m_sources.end())
            return *static_cast<const Source *>(found->second.get());
    }
    // Built outside the lock, so that a source may ask for others; two threads that build the
    // same source at once keep the first, and the sources being pure functions of the
    // parameters, either is the same.
    std::shared_ptr<const Source> made;
    if constexpr (std::is_constructible_v<Source, const Engine &>)
        made = std::make_shared<const Source>(*this);
    else
        made = std::make_shared<const Source>(m_params);
    const std::lock_guard lock(m_sourcesMutex);
    const auto [where, inserted] = m_sources.emplace(key, std::move(made));
    return *static_cast<const Source *>(where->second.get());
}

} // namespace posenc
