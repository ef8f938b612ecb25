#include "RopeLessonNumbers.h"

#include "core/LessonModel.h"

#include <functional>

using namespace Qt::StringLiterals;

namespace posenc::RopeLessonNumbers {

using namespace LessonNumbers;

// HF's dynamic NTK (_compute_dynamic_ntk_parameters) reads max_position_embeddings, not L₀:
// rope-scaling told Qwen2.5 7B Instruct it read 131072, its max_len, where its config says 32768.
QList<Entry> modelEntries()
{
    using ModelNumber = std::function<Number(const LessonModel &)>;
    return {
        {u"model_max_position_embeddings"_s, u"the named model's max_position_embeddings, as its preset gives it"_s,
         ModelNumber([](const LessonModel &m) {
             if (m.name.isEmpty() || m.maxPositionEmbeddings <= 0)
                 return none(u"the model's preset does not give its max_position_embeddings"_s);
             return integer(m.maxPositionEmbeddings);
         })},
        {u"model_max_position_embeddings_above"_s,
         u"a condition: the named model's max_position_embeddings is above the original context L₀"_s,
         ModelNumber([](const LessonModel &m) {
             const auto original = m.params.rope.originalMaxLen;
             return condition(!m.name.isEmpty() && m.maxPositionEmbeddings > 0 && original
                                  && m.maxPositionEmbeddings > *original,
                              u"max_position_embeddings is not above L₀, or not given"_s);
         })},
        // rope-scaling told a model whose config names no context past its original L₀ that it
        // "runs to 32,768 with dynamic NTK scaling", its L₀ (InternLM2.5's max_position_embeddings).
        {u"model_context_above_original"_s,
         u"a condition: the named model's own context is above the original context L₀ its scaling stretches"_s,
         ModelNumber([](const LessonModel &m) {
             const auto original = m.params.rope.originalMaxLen;
             return condition(!m.name.isEmpty() && m.context > 0 && original && m.context > *original,
                              u"the model names no context past L₀"_s);
         })},
    };
}

} // namespace posenc::RopeLessonNumbers
