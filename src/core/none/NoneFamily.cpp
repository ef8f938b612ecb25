// The none family (NoPE, docs/ARCHITECTURE.md, Encoding families): no position term, X = s·E.
#include "core/FamilySpec.h"
#include "core/none/NoneLessonNumbers.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilySpec makeNoneFamily()
{
    FamilySpec family = Families::fromWords(FamilyWords(u"None"_s), FamilyKind::Term);
    family.rows = [] { return QList<ParamSpec>(); };
    // X is s·E alone: its heatmap first.
    family.defaultFigures = {{u"heatmap"_s, {{u"quantity"_s, u"input"_s}}},
                             {u"magnitudes"_s, {}},
                             {u"dropout"_s, {}},
                             {u"dropout-anatomy"_s, {}}};
    family.lessonNumbers = NoneLessonNumbers::entries;
    return family;
}

} // namespace posenc
