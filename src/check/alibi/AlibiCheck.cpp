// ALiBi's facet of posenc check (FamilyCheck.h): its bias table, its config reader.
#include "check/FamilyCheck.h"

#include "check/alibi/AlibiBiasTensors.h"
#include "check/alibi/AlibiConfig.h"
#include "check/alibi/AlibiSlopeVector.h"
#include "check/alibi/AlibiTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What the shape check reads as ALiBi's (TensorReading): its slopes, BLOOM's and MPT's key biases,
// and a stack of its heads' biases, whose slopes are checked together.
TensorReading alibiTensors()
{
    TensorReading tensors;
    VectorReading slopes;
    slopes.what = u"ALiBi's slopes"_s;
    slopes.range = u"in (0, 1]"_s;
    slopes.parameterFree = true;
    slopes.plausible = AlibiSlopeVector::plausible;
    slopes.identify = [](const std::vector<double> &v, StoredType stored) {
        return AlibiSlopeVector::check(v, stored, std::nullopt);
    };
    slopes.expect
        = [](const std::vector<double> &v, StoredType stored, const Params &, std::optional<std::int64_t> heads) {
              return AlibiSlopeVector::check(v, stored, heads.value_or(std::int64_t(v.size())));
          };
    tensors.vector = std::move(slopes);
    HeadBiasReading bias;
    bias.heads = [](const Params &p) { return p.alibi.heads; };
    bias.atHead = [](Params &p, std::int64_t heads, std::int64_t head) {
        p.alibi.heads = heads;
        p.alibi.head = head;
    };
    bias.keyBiases = AlibiBiasTensors::keyBiases;
    bias.declaredKeyBiases = AlibiBiasTensors::declaredKeyBiases;
    bias.combineHeads = AlibiBiasTensors::combineHeads;
    bias.headsHeld = AlibiBiasTensors::headsHeld;
    tensors.headBias = std::move(bias);
    tensors.mistakes = AlibiSlopeVector::mistakeIds();
    return tensors;
}

} // namespace

FamilyCheck makeAlibiCheck()
{
    FamilyCheck check
        = FamilyCheck::withConfig(AlibiTableCheck::hypothesis(), AlibiConfig::layers, AlibiConfig::findings(),
                                  [](const Params &p) { return u"ALiBi, %1 heads"_s.arg(p.alibi.heads); });
    check.tensors = alibiTensors();
    return check;
}

} // namespace posenc
