"""The vectors column of the report tables: source, width (with any padding) and coverage."""

from gcnn_match.reporting.tables import _vectors


def test_the_column_says_how_narrower_vectors_were_padded():
    stand_in = " [stand-in: glove.840B.300d not found]"
    plain = "glove-6b-50d-packaged: 50d, 99.0% of 9 types, 98.5% of tokens; 1 OOV initialised zeros"
    assert _vectors(plain + stand_in) == (
        "glove-6b-50d-packaged (50d, 98.5% of tokens); stand-in, glove.840B.300d not found"
    )
    zeros = plain.replace("50d,", "50d zero-padded to 300d,")
    assert _vectors(zeros) == "glove-6b-50d-packaged (50d zero-padded to 300d, 98.5% of tokens)"
    drawn = plain.replace("50d,", "50d padded to 300d (OOV init),")
    assert _vectors(drawn) == (
        "glove-6b-50d-packaged (50d padded to 300d (OOV init), 98.5% of tokens)"
    )
    normal = plain.replace("50d,", "50d padded to 300d (normal(0, 0.01)),")
    assert _vectors(normal) == (
        "glove-6b-50d-packaged (50d padded to 300d (normal(0, 0.01)), 98.5% of tokens)"
    )
    assert _vectors("random: 200d, no pretrained vectors; 9 types initialised zeros") == (
        "random (200d)"
    )
