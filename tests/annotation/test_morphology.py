import pytest

from annotation.task_types.csqa.morphology import mentions_concept


@pytest.mark.parametrize(
    "question",
    [
        "Kapan orang biasanya berkunjung ke rumah nenek?",
        "Apa tujuan kunjungan keluarga saat Lebaran?",
        "Siapa yang biasanya mengunjungi tetangga?",
        "Tempat apa yang paling sering dikunjungi turis di Bali?",
        "Kunjung-mengunjungi adalah tradisi apa?",
    ],
)
def test_inflected_forms_of_kunjung_match(question):
    assert mentions_concept(question, "kunjung") is True


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("Saha nu nulis surat ieu?", "tulis"),  # Sundanese nasalisation t -> n
        ("Barudak keur ulin di buruan.", "budak"),  # Sundanese plural infix -ar-
        ("Naon anu dipikahayang ku urang Sunda?", "hayang"),
        ("Di mana pemandangan paling indah?", "pandang"),
        ("Apa makanan khas Padang?", "makan"),
        ("Apakah adab makan utama masyarakat Indonesia?", "adab makan"),
    ],
)
def test_other_affixes_match(question, concept):
    assert mentions_concept(question, concept) is True


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("Di mana kita bisa membeli sayur?", "kunjung"),
        ("Rumah itu sangat besar.", "pasar"),
        ("Apakah makan malam penting?", "adab makan"),
    ],
)
def test_absent_concept_does_not_match(question, concept):
    assert mentions_concept(question, concept) is False
