"""Portuguese (of Portugal and of Brazil): the words of map requests, read in English (see the
package docstring)."""

from __future__ import annotations

import re

from maproom.domain.chat.lang import common
from maproom.domain.chat.lang.pt_replies import REPLIES, YES, shown

__all__ = ["AFTER", "MARKERS", "PHRASES", "REPLIES", "REWRITES", "YES", "shown"]

MARKERS = (
    "os",
    "as",
    "do",
    "da",
    "dos",
    "das",
    "em",
    "na",
    "nos",
    "nas",
    "ao",
    "aos",
    "pelo",
    "pela",
    "para",
    "pra",
    "pro",
    "nao",
    "voce",
    "tu",
    "obrigado",
    "obrigada",
    "camada",
    "camadas",
    "quantos",
    "quantas",
    "qual",
    "quais",
    "mais",
    "ha",
    "sao",
)
REWRITES = [
    (re.compile(r"\b(?:renomeia|renomeie|renomear|renomeia a camada|muda o nome d[aeo]s?|"
                r"mude o nome d[aeo]s?|altera o nome d[aeo]s?|troca o nome d[aeo]s?)\b"
                r"(?P<what>.*?) (?:para|como|a|pra) (?P<name>[^\s\"].*)$"),
     r'rename\g<what> to "\g<name>"'),
    (re.compile(r"\b(me|nos) (leva|leve|mostra|mostre|diz|diga)\b"), r"\2-\1"),
]  # fmt: skip
AFTER = common.NOUN_FIRST
PHRASES: dict[str, str] = {
    **common.nouns("pt"),
    **common.numbers({
        "zero": 0, "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5,
        "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12,
        "treze": 13, "catorze": 14, "quatorze": 14, "quinze": 15, "dezasseis": 16,
        "dezesseis": 16, "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50,
        "cem": 100,
    }),
    "milhoes de": "million", "milhoes": "million", "milhao de": "million", "milhao": "million",
    "mil": "thousand", "o dobro": "twice", "duas vezes": "twice", "metade": "half",
    # politeness and filler
    "por favor": "please", "se faz favor": "please", "faz favor": "please", "pf": "please",
    "obrigado": "thanks", "obrigada": "thanks", "valeu": "thanks", "otimo": "great",
    "perfeito": "perfect", "bonito": "nice", "boa": "great", "ola": "hello", "oi": "hello",
    "bom dia": "hello", "podes": "can you", "pode": "can you", "poderia": "could you",
    "consegues": "can you", "quero": "i want to", "queria": "i want to", "gostaria de":
    "i want to", "preciso de": "i want to", "agora": "now", "tambem": "also", "depois":
    "then", "e depois": "then", "e": "and", "mas": "but", "ou": "or", "um pouco": "a bit",
    "um pouquinho": "a little", "muito": "a lot", "de novo": "again", "outra vez": "again",
    "novamente": "again", "so": "only", "apenas": "only", "somente": "only", "tudo": "all",
    "todas": "all", "todos": "all", "ajuda": "help", "o que podes fazer": "what can you do",
    "mesmo": "same", "o mesmo": "the same", "igual": "the same",
    # determiners and prepositions
    "o": "the", "a": "the", "os": "the", "as": "the", "um": "a", "uma": "a", "do": "of the",
    "da": "of the", "dos": "of the", "das": "of the", "de": "of", "no": "in the",
    "na": "in the", "nos": "in the", "nas": "in the", "em": "in", "ao": "to the",
    "aos": "to the", "pelo": "by", "pela": "by", "pelos": "by", "pelas": "by", "para": "to",
    "pra": "to", "pro": "to the", "com": "with", "sem": "without", "sobre": "over",
    "ate": "to", "entre": "between", "conforme": "by", "consoante": "by", "segundo": "by",
    "como": "as", "este": "this", "esta": "this", "isto": "this", "esse": "that",
    "essa": "that", "isso": "that", "aquele": "that", "aquela": "that", "eles": "them",
    "elas": "them", "ela": "it", "ele": "it", "seu": "their", "sua": "their", "seus": "their",
    "suas": "their", "meu": "my", "minha": "my", "meus": "my", "minhas": "my", "ai": "there",
    "ali": "there", "la": "there", "aqui": "here", "lhe": "it",
    # going places
    "voa para": "fly to", "voa ate": "fly to", "voar para": "fly to", "voa": "fly",
    "vai para": "go to", "vai a": "go to", "vai ate": "go to", "va para": "go to",
    "ir para": "go to", "ir a": "go to", "vamos para": "go to", "vamos a": "go to",
    "leva-me a": "take me to", "leva-me para": "take me to", "leva-me ate": "take me to",
    "leve-me a": "take me to", "leve-me para": "take me to", "leva-me": "take me to",
    "leva-nos a": "take us to", "me leva para": "take me to", "me leva pra": "take me to",
    "me leva a": "take me to", "me leve para": "take me to", "centra o mapa em":
    "center the map on", "centra em": "center on", "centra": "center", "centralize em":
    "center on", "mostra-me": "show me", "mostre-me": "show me", "me mostra": "show me",
    "me mostre": "show me", "mostra": "show", "mostre": "show", "mostrar": "show",
    "procura": "find", "encontra": "find", "localiza": "find", "onde fica": "where is",
    "onde e": "where is", "quero ver": "show me", "volta a": "go back to",
    "volta para": "go back to", "volta pra": "go back to", "regressa a": "go back to",
    # zoom and camera
    "faz zoom em": "zoom to", "faz zoom a": "zoom to", "faz zoom": "zoom", "da zoom em":
    "zoom to", "da zoom": "zoom", "zoom em": "zoom to", "zoom a": "zoom to", "zoom para":
    "zoom to", "aproxima": "zoom in", "aproxime": "zoom in", "aproximar": "zoom in",
    "aproxima mais": "zoom in", "chega mais perto": "zoom in", "amplia": "zoom in",
    "amplie": "zoom in", "aumenta o zoom": "zoom in", "afasta": "zoom out", "afaste": "zoom out",
    "afastar": "zoom out", "reduz o zoom": "zoom out", "diminui o zoom": "zoom out",
    "para o nivel": "to level", "ao nivel": "to level", "nivel de zoom": "zoom level",
    "nivel": "level", "mais perto": "closer", "mais longe": "further", "roda": "rotate",
    "rode": "rotate", "gira": "rotate", "gire": "rotate", "rodar": "rotate", "girar": "rotate",
    "graus": "degrees", "grau": "degrees", "inclina": "tilt", "incline": "tilt",
    "inclinar": "tilt", "inclinacao": "pitch", "em 3d": "3d", "vista 3d": "3d view",
    "em perspetiva": "perspective", "em perspectiva": "perspective", "plano": "flat",
    "plana": "flat", "move o mapa": "move the map", "move": "move", "mova": "move",
    "desloca": "move", "desloque": "move", "arrasta": "move", "norte": "north", "sul": "south",
    "leste": "east", "oeste": "west", "esquerda": "left", "direita": "right", "cima": "up",
    "baixo": "down", "para cima": "up", "para baixo": "down", "repoe a vista":
    "reset the view", "redefine a vista": "reset the view", "redefinir": "reset",
    "reinicia a vista": "reset the view", "vista inicial": "initial view",
    "volta ao inicio": "back to the start", "o mundo inteiro": "the whole world",
    "mundo inteiro": "the whole world", "mundo todo": "the whole world", "mundo": "world",
    "vista": "view", "mapa": "map",
    # layers
    "camada": "layer", "camadas": "layers", "a camada": "the layer", "as camadas": "the layers",
    "que camadas ha": "what layers are there", "lista as camadas": "list the layers",
    "esconde": "hide", "esconda": "hide", "esconder": "hide", "oculta": "hide",
    "oculte": "hide", "ocultar": "hide", "desliga": "turn off", "desligue": "turn off",
    "desativa": "turn off", "desative": "turn off", "tira": "remove", "tire": "remove",
    "volta a mostrar": "show again", "mostra de novo": "show again", "liga": "turn on",
    "ligue": "turn on", "ativa": "turn on", "ative": "turn on", "remove": "remove",
    "remova": "remove", "remover": "remove", "apaga": "delete", "apague": "delete",
    "apagar": "delete", "elimina": "remove", "elimine": "remove", "exclui": "delete",
    "exclua": "delete", "renomeia": "rename", "renomeie": "rename", "sobe": "move up",
    "desce": "move down", "para a frente": "to the front", "para o topo": "to the top",
    "para o fundo": "to the bottom", "acima de": "above", "abaixo de": "below",
    "por cima de": "above", "por baixo de": "below", "todas as camadas": "all layers",
    # styles
    "pinta": "paint", "pinte": "paint", "pintar": "paint", "colore": "colour",
    "colora": "colour", "colorir": "colour", "colorize": "colour", "poe": "make",
    "ponha": "make", "por": "make", "deixa": "make", "deixe": "make", "torna": "make",
    "torne": "make", "faz": "make", "faca": "make", "muda": "change", "mude": "change",
    "altera": "change", "altere": "change", "troca": "change", "cor": "colour",
    "cores": "colours", "estilo": "style", "maior": "biggest", "maiores": "biggest",
    "menor": "smallest", "menores": "smallest", "mais grande": "biggest",
    "mais grandes": "biggest", "mais pequeno": "smallest", "mais pequena": "smallest",
    "mais pequenos": "smallest", "mais pequenas": "smallest", "mais grosso": "thicker",
    "mais grossa": "thicker", "mais grossos": "thicker", "mais grossas": "thicker",
    "mais fino": "thinner", "mais fina": "thinner", "mais finos": "thinner",
    "mais finas": "thinner", "mais transparente": "more transparent",
    "mais transparentes": "more transparent", "menos transparente": "more opaque",
    "mais opaco": "more opaque", "transparente": "transparent", "transparentes":
    "transparent", "semitransparente": "semi-transparent", "opaco": "opaque",
    "opaca": "opaque", "opacidade": "opacity", "transparencia": "transparency",
    "tamanho": "size", "raio": "radius", "espessura": "width", "largura": "width",
    "classes": "classes", "categorias": "categories", "intervalos iguais": "equal intervals",
    "quantis": "quantile", "com base em": "based on", "em funcao de": "based on",
    "dependendo de": "depending on", "depender de": "depend on", "dependa de": "depend on",
    "proporcional a": "proportional to", "mapa de calor": "heatmap", "ponderado por":
    "weighted by", "ponderada por": "weighted by", "pesado por": "weighted by",
    "rotulo": "label", "rotulos": "labels", "rotula": "label", "etiqueta": "label",
    "etiquetas": "labels", "legenda": "labels", "com os nomes": "with the names",
    "com o nome": "with the name", "nomes": "names", "nome": "name",
    # basemap
    "mapa base": "basemap", "mapa de base": "basemap", "mapa de fundo": "basemap",
    "fundo": "background", "modo escuro": "dark mode", "modo claro": "light mode",
    "escuro": "dark", "escura": "dark", "claro": "light", "clara": "light",
    "satelite": "satellite", "imagem de satelite": "satellite imagery", "vista de satelite":
    "satellite view", "mapa de ruas": "street map", "ruas": "streets", "estradas": "roads",
    "agua": "water", "mar": "sea", "oceano": "ocean", "rios": "rivers", "lagos": "lakes",
    "parques": "parks", "edificios": "buildings", "fronteiras": "borders", "limites":
    "boundaries",
    # highlight
    "destaca": "highlight", "destaque": "highlight", "destacar": "highlight",
    "realca": "highlight", "realce": "highlight", "evidencia": "highlight",
    "evidencie": "highlight", "mascara": "mask", "tira o destaque": "remove the highlight",
    "remove o destaque": "remove the highlight", "tira a mascara": "remove the mask",
    "remove a mascara": "remove the mask",
    # data
    "quantos": "how many", "quantas": "how many", "ha": "are there", "existem":
    "are there", "tem": "have", "tem mais de": "have more than", "que tem": "with",
    "com mais de": "with more than", "mais de": "more than", "com menos de":
    "with fewer than", "menos de": "fewer than", "pelo menos": "at least",
    "no minimo": "at least", "no maximo": "at most", "maior que": "greater than",
    "menor que": "less than", "superior a": "more than", "inferior a": "less than",
    "habitantes": "inhabitants", "pessoas": "people", "gente": "people",
    "populacao": "population", "valor": "value", "valores": "values",
    "visitantes": "visitors", "comprimento": "length", "qual e": "what is", "qual": "which",
    "quais sao": "what are", "quais": "which", "que": "what", "diz-me": "tell me",
    "me diz": "tell me", "campos": "fields", "atributos": "attributes", "colunas": "columns",
    "mais populosa": "most populous", "mais populoso": "most populous",
    "mais populosas": "most populous", "mais populosos": "most populous",
    "mais visitado": "most visited", "mais visitada": "most visited",
    "mais visitados": "most visited", "mais visitadas": "most visited",
    "mais longo": "longest", "mais longa": "longest", "mais comprido": "longest",
    "mais comprida": "longest", "mais curto": "shortest", "mais curta": "shortest",
    "mais alto": "highest", "mais alta": "highest", "mais baixo": "lowest",
    "mais baixa": "lowest", "maximo": "maximum", "maxima": "maximum", "minimo": "minimum",
    "minima": "minimum", "media": "average", "total": "total", "soma": "sum",
    "tipos": "kinds", "tipos de": "kinds of", "que tipos de": "what kinds of",
    "filtra": "filter", "filtre": "filter", "filtrar": "filter", "so mostra": "only show",
    "mostra so": "show only", "mostra apenas": "show only", "mostre apenas": "show only",
    "mostre so": "show only", "deixa so": "only show", "tira o filtro": "remove the filter",
    "remove o filtro": "remove the filter", "filtro": "filter", "zona tampao": "buffer",
    "area de influencia": "buffer", "buffer": "buffer", "a volta de": "around",
    "em volta de": "around", "ao redor de": "around", "conta": "count", "contar": "count",
    "cada": "each", "por cada": "per", "dissolve": "dissolve", "funde": "merge",
    "junta": "merge", "une": "merge", "recorta": "clip", "corta": "clip",
    "nova camada": "new layer", "uma nova camada": "a new layer", "guarda": "save",
    "salva": "save", "cria": "create", "chamada": "called", "chamado": "called",
    "quilometros": "km", "km": "km", "metros": "m", "milhas": "mi",
    # history
    "desfaz": "undo", "desfaca": "undo", "desfazer": "undo", "desfaz isso": "undo",
    "refaz": "redo", "refaca": "redo", "refazer": "redo", "volta atras": "go back",
    "voltar atras": "go back", "anula": "undo", "ultimas": "last", "ultimos": "last",
    "ultima": "last", "ultimo": "last", "alteracoes": "changes", "mudancas": "changes",
    "vezes": "times",
    # colours
    **common.colours({
        "vermelho": "red", "vermelha": "red", "vermelhos": "red", "vermelhas": "red",
        "azul": "blue", "azuis": "blue", "verde": "green", "verdes": "green",
        "amarelo": "yellow", "amarela": "yellow", "amarelos": "yellow", "amarelas": "yellow",
        "laranja": "orange", "roxo": "purple", "roxa": "purple", "roxos": "purple",
        "violeta": "violet", "rosa": "pink", "cor de rosa": "pink", "preto": "black",
        "preta": "black", "pretos": "black", "pretas": "black", "branco": "white",
        "branca": "white", "brancos": "white", "brancas": "white", "cinzento": "grey",
        "cinzenta": "grey", "cinza": "grey", "castanho": "brown", "castanha": "brown",
        "marrom": "brown", "dourado": "gold", "dourada": "gold", "turquesa": "turquoise",
    }, shades={"escuro": "dark", "escura": "dark", "escuros": "dark", "escuras": "dark",
               "claro": "light", "clara": "light", "claros": "light", "claras": "light",
               "mais escuro": "darker", "mais escura": "darker", "mais claro": "lighter",
               "mais clara": "lighter"}),
}  # fmt: skip
