// CellRandom: the counter layout over Random123's Philox4x32-10, and the vector paths of
// fill() and gather() word for word against Random123's own philox4x32.

#include "core/Philox.h"
#include "support/TestMain.h"

#include <Random123/philox.h>

#include <QTest>

#include <cstdint>
#include <vector>

namespace tst_philox {
using namespace Qt::StringLiterals;
using posenc::CellRandom;
using posenc::RandomStream;

namespace {

// Random123's philox4x32 with the counter CellRandom documents: (position low, position high,
// group, stream), keyed by the seed's two halves.
std::array<std::uint32_t, 4> reference(std::uint64_t seed, RandomStream stream, std::int64_t position,
                                       std::uint32_t group)
{
    const r123::Philox4x32::ctr_type counter {{static_cast<std::uint32_t>(position),
                                               static_cast<std::uint32_t>(static_cast<std::uint64_t>(position) >> 32),
                                               group, static_cast<std::uint32_t>(stream)}};
    const r123::Philox4x32::key_type key {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
    const auto out = r123::Philox4x32()(counter, key);
    return {out[0], out[1], out[2], out[3]};
}

} // namespace

class TestPhilox : public QObject
{
    Q_OBJECT

private slots:
    void knownAnswer();
    void wordsFollowTheCounterLayout();
    void fillEqualsRandom123_data();
    void fillEqualsRandom123();
    void gatherEqualsRandom123_data();
    void gatherEqualsRandom123();
};

// Random123's published known-answer vector for philox4x32-10 at counter 0 and key 0.
void TestPhilox::knownAnswer()
{
    const r123::Philox4x32::ctr_type counter {{0, 0, 0, 0}};
    const r123::Philox4x32::key_type key {{0, 0}};
    const auto out = r123::Philox4x32()(counter, key);
    QCOMPARE(out[0], 0x6627e8d5u);
    QCOMPARE(out[1], 0xe169c58du);
    QCOMPARE(out[2], 0xbc57ac4cu);
    QCOMPARE(out[3], 0x9b00dbd8u);
}

void TestPhilox::wordsFollowTheCounterLayout()
{
    for (const std::uint64_t seed : {std::uint64_t(0), std::uint64_t(1), (std::uint64_t(1) << 40) + 7}) {
        for (const RandomStream stream :
             {RandomStream::Embedding, RandomStream::Dropout, RandomStream::DropoutLowBits}) {
            const CellRandom random(seed, stream);
            for (const std::int64_t position : {std::int64_t(0), std::int64_t(5), (std::int64_t(1) << 33) + 1}) {
                for (const std::uint32_t group : {0u, 1u, 77u, 0xFFFFFFFFu})
                    QCOMPARE(random.words(position, group), reference(seed, stream, position, group));
            }
        }
    }
}

void TestPhilox::fillEqualsRandom123_data()
{
    QTest::addColumn<std::int64_t>("position");
    QTest::addColumn<std::int64_t>("group0");
    QTest::addColumn<std::int64_t>("count");
    // Counts below, at and around the vector width of 64 groups, from aligned and odd starts.
    for (const std::int64_t count : {1, 15, 63, 64, 65, 128, 200}) {
        for (const std::int64_t group0 : {0, 3, 1000}) {
            QTest::addRow("count %lld from group %lld", static_cast<long long>(count), static_cast<long long>(group0))
                << std::int64_t(12345) << group0 << count;
        }
    }
    QTest::newRow("position past 2^32") << (std::int64_t(1) << 32) + 9 << std::int64_t(7) << std::int64_t(130);
}

void TestPhilox::fillEqualsRandom123()
{
    QFETCH(std::int64_t, position);
    QFETCH(std::int64_t, group0);
    QFETCH(std::int64_t, count);
    for (const std::uint64_t seed : {std::uint64_t(0), std::uint64_t(0xDEADBEEFCAFEull)}) {
        const CellRandom random(seed, RandomStream::Dropout);
        std::vector<std::uint32_t> words(static_cast<std::size_t>(4 * count) + 4, 0xA5A5A5A5u);
        random.fill(position, group0, count, words.data());
        for (std::int64_t i = 0; i < count; ++i) {
            const auto expected
                = reference(seed, RandomStream::Dropout, position, static_cast<std::uint32_t>(group0 + i));
            for (int k = 0; k < 4; ++k) {
                if (words[std::size_t(4 * i + k)] != expected[std::size_t(k)])
                    QFAIL(qPrintable(u"group %1 word %2 differs"_s.arg(group0 + i).arg(k)));
            }
        }
        // Nothing written past the last group.
        for (int k = 0; k < 4; ++k)
            QCOMPARE(words[std::size_t(4 * count + k)], 0xA5A5A5A5u);
    }
}

void TestPhilox::gatherEqualsRandom123_data()
{
    QTest::addColumn<int>("count");
    for (const int count : {1, 2, 15, 16, 17, 31, 32, 40})
        QTest::addRow("%d groups", count) << count;
}

void TestPhilox::gatherEqualsRandom123()
{
    QFETCH(int, count);
    const std::uint64_t seed = 42;
    const std::int64_t position = 987654;
    const CellRandom random(seed, RandomStream::DropoutLowBits);
    std::vector<std::uint32_t> groups;
    for (int i = 0; i < count; ++i)
        groups.push_back(static_cast<std::uint32_t>((i * 2654435761u) % 100000u)); // scattered, unordered
    std::vector<std::uint32_t> words(static_cast<std::size_t>(4 * count) + 4, 0x5A5A5A5Au);
    random.gather(position, groups.data(), count, words.data());
    for (int i = 0; i < count; ++i) {
        const auto expected = reference(seed, RandomStream::DropoutLowBits, position, groups[std::size_t(i)]);
        for (int k = 0; k < 4; ++k)
            QCOMPARE(words[std::size_t(4 * i + k)], expected[std::size_t(k)]);
    }
    for (int k = 0; k < 4; ++k)
        QCOMPARE(words[std::size_t(4 * count + k)], 0x5A5A5A5Au);
}

POSENC_TEST_APPLESS_MAIN(TestPhilox)
} // namespace tst_philox
#include "tst_philox.moc"
