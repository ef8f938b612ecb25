#pragma once

#include "LessonNumbers.h"
#include "Params.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace posenc {

// The two far distances back from the families figure's query that its lesson quotes after 1 and
// 10: about 100 (fam_far) and about 1000 (fam_farthest).
enum class FamiliesDistance { Far, Farthest };

// The distance `which` stands for, for these parameters: the key familiesKeyBack (FamilySpec.h)
// draws for its wish, 100 or 1000, quoted only where it lies beyond the nearer distance the lesson
// quotes before it (1 for the far key, 10 for the farthest); nothing where the figure draws no key
// that far. Every number the lesson quotes at those distances asks this: one rule says where they are.
std::optional<std::int64_t> familiesQuotedBack(const Params &params, FamiliesDistance which);

// `at` of that distance, or a number missing for the reason there is none ("not here: the families
// figure draws no key more than 10 before its query").
LessonNumbers::Number atFamiliesDistance(const Params &params, FamiliesDistance which,
                                         const std::function<LessonNumbers::Number(std::int64_t)> &at);

} // namespace posenc
