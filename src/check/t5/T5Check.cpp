// T5's facet of posenc check (FamilyCheck.h): its bucket table, its config reader.
#include "check/FamilyCheck.h"

#include "check/t5/T5BiasStack.h"
#include "check/t5/T5Config.h"
#include "check/t5/T5TableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeT5Check()
{
    // Its layers' words: "T5 buckets 32, max distance 128".
    FamilyCheck check = FamilyCheck::withConfig(
        T5TableCheck::hypothesis(), T5Config::layers, T5Config::findings(),
        [](const Params &p) { return u"T5 buckets %1, max distance %2"_s.arg(p.t5.buckets).arg(p.t5.maxDistance); });
    // position_bias [.., H, L, L], read per bucket.
    check.readStack = [](const std::vector<std::int64_t> &shape, const TableRows &rows, const Params *declared,
                         const QString &) {
        return T5BiasStack::read(shape, rows, declared ? std::optional(declared->t5) : std::nullopt);
    };
    check.tensors.mistakes = T5BiasStack::mistakeIds();
    return check;
}

} // namespace posenc
