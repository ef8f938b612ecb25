#pragma once

#include "core/ParamTable.h"
#include "core/TrContext.h"
#include "core/rope/RopeFrequencies.h"

#include <functional>
#include <optional>

// What the rotary family's rows of the parameter table share (RopeParamRows, RopeScalingRows): the
// ranges, the checks of the head, and the idle reasons and needs each rope_type has by RopeTypes.
namespace posenc::RopeRowParts {

using Code = IdleReason::Code;

constexpr double kMaxTheta = 1e15;
constexpr double kMaxFactor = 1e6;
// The least factor and longrope divisor: a smaller one makes the fastest pair turn more than
// 1000 radians a position, past what an angle p·θ keeps in double at p near 2^24.
constexpr double kMinFactor = 1e-3;

// "numbers in [0.001, 1000000]": the range of a factor and of a longrope divisor, in words.
QString factorRange();

// The rows' words, translated in the context "RopeParamRows".
inline constexpr TrContext tr {"RopeParamRows"};
// A value in a message: the shortest text that reads back as it.
QString number(double value);

bool underRope(const Params &p);
// head_dim's bounds: under rope, one head within d_model (rope-input rotates its first columns).
std::pair<std::int64_t, std::int64_t> headDimBounds(const Params &p);
// head_dim even, within its bounds: the rows that depend on it say nothing of a refused one.
bool headDimValid(const Params &p);
// partial_rotary_factor in (0, 1].
bool factorValid(const Params &p);

// The smallest rotary dim the type allows: dynamic's exponent r / (r - 2) needs r >= 4.
std::int64_t minRotaryDim(RopeType type);

// Whether head_dim and partial_rotary_factor give the type a rotary dim it can turn.
bool rotaryValid(const Params &p);

// Idle under another encoding.
std::optional<IdleReason> ropeIdle(const Params &p);

// "yarn", "yarn and longrope", "linear, dynamic, yarn and llama3".
QString typeList(const QList<RopeType> &types);

// Idle under another encoding, and under a rope-type that does not read the parameter `key`
// (RopeTypes).
std::optional<IdleReason> readBy(const Params &p, const QString &key);

// Whether the chosen rope-type cannot run without the parameter `key` (RopeTypes).
bool neededNow(const Params &p, const QString &key);

// "is needed by rope-type yarn: <what>", for a parameter the type cannot do without.
ParamError needed(const QString &key, const Params &p, const QString &what, const QString &allowed);

// A number field of the group (ParamRows::numberRow: any double parses, so that the check refuses
// NaN with the range), idle under another encoding.
ParamSpec numberRow(QString key, QString valueName, std::function<double &(Params &)> field);

// A finite number > 0, refused with `allowed` otherwise.
std::optional<ParamError> positive(const QString &key, double value, const QString &allowed);
// "a finite number > 0".
QString positiveText();

// The derived numbers for a formula's "now", when the parameters are RoPE's and valid.
std::optional<RopeFrequencies::Description> description(const Params &p);

} // namespace posenc::RopeRowParts
